import Foundation
import Logging

/// A log handler that keeps every record, so tests can check what was (and was not) logged.
struct CapturingLogHandler: LogHandler {
    /// Every record logged through any copy of the handler, rendered as one line with its metadata.
    final class Records: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []

        func append(_ line: String) {
            lock.withLock { lines.append(line) }
        }

        var all: [String] { lock.withLock { lines } }
    }

    let records: Records
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let rendered = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        records.append("\(event.level) \(event.message) \(rendered)")
    }

    /// A logger writing to a fresh set of records.
    static func logger() -> (Logger, Records) {
        let records = Records()
        return (Logger(label: "test") { _ in CapturingLogHandler(records: records) }, records)
    }
}

extension Logger {
    /// A logger that drops everything, so test output stays readable.
    static let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
}
