import BrokerHarness
import Foundation
import WorkerHarness

/// scripts/otlp-receiver as a child process: an OTLP/HTTP endpoint on a free port of 127.0.0.1 that writes each span
/// it receives to `file` as a JSON line.
final class OTLPReceiver {
    /// One span as the receiver decoded it.
    struct Span {
        var service: String?
        var traceID: String
        var spanID: String
        var parentSpanID: String
        var name: String
        /// OTLP's span kind: 4 producer, 5 consumer.
        var kind: Int
        /// OTLP's status code: 2 is an error.
        var status: Int
        var attributes: [String: String]
    }

    let port: Int
    private let file: URL
    private let process: Process

    init(writingTo file: URL) throws {
        self.file = file
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Paths.root.appendingPathComponent("scripts/otlp-receiver").path, file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        self.process = process
        // The receiver prints its port once it listens; a missing opentelemetry-proto ends it before that.
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 0x0A {
            line.append(first)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            kill(process.processIdentifier, SIGKILL)
            throw HarnessError("scripts/otlp-receiver did not start (is opentelemetry-proto installed? scripts/test installs it)")
        }
        self.port = port
    }

    func rawLines() -> String {
        (try? String(contentsOf: file, encoding: .utf8)) ?? ""
    }

    /// The bytes of every export request, in hex.
    func exportedBytesHex() -> String {
        jsonLines().compactMap { $0["requestHex"] as? String }.joined(separator: "\n")
    }

    func spans() throws -> [Span] {
        jsonLines().map { object in
            Span(
                service: object["service"] as? String, traceID: object["traceId"] as? String ?? "",
                spanID: object["spanId"] as? String ?? "", parentSpanID: object["parentSpanId"] as? String ?? "",
                name: object["name"] as? String ?? "", kind: object["kind"] as? Int ?? 0,
                status: object["status"] as? Int ?? 0,
                attributes: (object["attributes"] as? [String: Any] ?? [:]).mapValues { "\($0)" })
        }
    }

    private func jsonLines() -> [[String: Any]] {
        rawLines().split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// SIGKILL: a child of the test process inherits its blocked signals, SIGTERM among them.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

extension Data {
    var hexString: String { map { String(format: "%02x", $0) }.joined() }
}
