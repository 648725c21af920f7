import Foundation
import Logging

/// A log handler that keeps every record, so tests can check what was (and was not) logged.
public struct CapturingLogHandler: LogHandler {
    /// One record: its level, message and metadata (the logger's merged with the call's).
    public struct Record: Sendable {
        public var level: Logger.Level
        public var message: String
        public var metadata: Logger.Metadata

        /// The record as one line, metadata sorted by key: what privacy checks search.
        public var line: String {
            let rendered = metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            return "\(level) \(message) \(rendered)"
        }
    }

    /// Every record logged through any copy of the handler.
    public final class Records: @unchecked Sendable {
        private let lock = NSLock()
        private var records: [Record] = []

        public init() {}

        func append(_ record: Record) {
            lock.withLock { records.append(record) }
        }

        /// The records so far, in order.
        public var entries: [Record] { lock.withLock { records } }

        /// The records so far, each as its ``Record/line``.
        public var all: [String] { entries.map(\.line) }
    }

    public let records: Records
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .trace

    public init(records: Records) {
        self.records = records
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        records.append(
            Record(level: event.level, message: "\(event.message)", metadata: metadata.merging(event.metadata ?? [:]) { $1 }))
    }

    /// A logger writing to a fresh set of records.
    public static func logger() -> (Logger, Records) {
        let records = Records()
        return (Logger(label: "test") { _ in CapturingLogHandler(records: records) }, records)
    }
}
