import BrokerHarness
import Foundation
import Testing

/// The ports the suites start servers on come from below the kernel's ephemeral range, where no outgoing connection
/// can take one between the test's choice and the server's bind, and are never handed out twice in one run.
@Suite struct FreePortTests {
    @Test func portsComeFromBelowTheEphemeralRangeAndNeverTwice() throws {
        let ports = try (0..<200).map { _ in try FreePort.find() }
        #expect(Set(ports).count == ports.count)
        let range = try String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)
        let ephemeral = try #require(range.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) })
        #expect(ports.allSatisfy { $0 < ephemeral }, "the kernel's ephemeral ports start at \(ephemeral)")
    }
}
