import Foundation
import NotificationEvents
import RedGreenExample
import Responder
import ResponderSQLite

/// The benchmarks of the shared pipeline, each run on a fixture (`scripts/make-fixtures --events N --out FILE`):
///
/// - `process FIXTURE [--state PATH] [--concurrency N]`: ``ResponsePipeline/process(_:)`` on each rotate event of
///   the fixture, decoded into messages beforehand; N events of different notifications at once (default 1).
/// - `replay FIXTURE [--state PATH]`: ``Replay`` of the whole fixture, outputs discarded.
///
/// `--state` is a SQLite file, deleted and created afresh for each run, or `:memory:` (the default) for the
/// in-memory store. `--repeat R` runs the benchmark R times (default 1), each on a fresh store, and prints each
/// run's events per second and the process's CPU time per event (user + system). The difference between the
/// instruction counts of two repeat counts under callgrind is the exact cost of one run, without the set-up.
struct Benchmark {
    enum Mode: String {
        case process, replay
    }

    var mode: Mode
    var fixture: URL
    var state = ":memory:"
    var concurrency = 1
    var repetitions = 1

    init(arguments: [String]) throws {
        guard arguments.count >= 2, let mode = Mode(rawValue: arguments[0]) else { throw UsageError() }
        self.mode = mode
        fixture = URL(fileURLWithPath: arguments[1])
        var options = arguments.dropFirst(2).makeIterator()
        while let option = options.next() {
            guard let value = options.next() else { throw UsageError() }
            switch option {
            case "--state": state = value
            case "--concurrency": concurrency = try Self.positive(value)
            case "--repeat": repetitions = try Self.positive(value)
            default: throw UsageError()
            }
        }
    }

    private static func positive(_ text: String) throws -> Int {
        guard let number = Int(text), number > 0 else { throw UsageError() }
        return number
    }

    func run() async throws {
        let messages = mode == .process ? try Self.rotateMessages(in: fixture) : []
        for _ in 0..<repetitions {
            let store = try openStore()
            defer { try? (store as? SQLiteStateStore)?.close() }
            let pipeline = ResponsePipeline(registry: RedGreen.makeRegistry(), store: store)
            switch mode {
            case .process:
                let measured = try await Measurement.of {
                    try await Self.process(messages, through: pipeline, concurrency: concurrency)
                }
                print("process (\(state), concurrency \(concurrency)): \(measured)")
            case .replay:
                let measured = try await Measurement.of {
                    try await Replay(pipeline: pipeline).run(fixture: fixture, onOutput: { _ in }).events
                }
                print("replay (\(state)): \(measured)")
            }
        }
    }

    private func openStore() throws -> any StateStore {
        guard state != ":memory:" else { return InMemoryStateStore() }
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: state + suffix) {
            try FileManager.default.removeItem(atPath: state + suffix)
        }
        return try SQLiteStateStore(path: state)
    }

    /// The messages of the fixture's rotate events.
    private static func rotateMessages(in fixture: URL) throws -> [InboundMessage] {
        let text = try String(contentsOf: fixture, encoding: .utf8)
        return try text.split(separator: "\n").compactMap { line in
            let message = InboundMessage(try EventCodec.decodeFixtureLine(Array(line.utf8)))
            let event = try EventCodec.decodeResponseEvent(message.body)
            return event.data.actionIdentifier.rawValue == RedGreen.rotateActionIdentifier ? message : nil
        }
    }

    /// Processes `messages` in order, `concurrency` at a time; each batch holds events of different notifications
    /// only when the fixture spreads them so (the mix does), which is what the scheduler guarantees in production.
    private static func process(
        _ messages: [InboundMessage], through pipeline: ResponsePipeline, concurrency: Int
    ) async throws -> Int {
        var failures = 0
        for start in stride(from: 0, to: messages.count, by: concurrency) {
            let batch = messages[start..<min(start + concurrency, messages.count)]
            failures += await withTaskGroup(of: Int.self) { group in
                for message in batch {
                    group.addTask {
                        if case .completed = await pipeline.process(message) { return 0 }
                        return 1
                    }
                }
                return await group.reduce(0, +)
            }
        }
        guard failures == 0 else { throw BenchmarkFailure(failures: failures) }
        return messages.count
    }
}

struct UsageError: Error, CustomStringConvertible {
    var description: String {
        "usage: responder-bench (process | replay) FIXTURE [--state PATH | --state :memory:] [--concurrency N] "
            + "[--repeat R]"
    }
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    var failures: Int
    var description: String { "\(failures) events did not complete" }
}
