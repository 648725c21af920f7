import AMQP
import Foundation
import Synchronization

/// The broker `scripts/broker start` runs for the tests, found through `AMQP_URL`.
enum Broker {
    static let url = ProcessInfo.processInfo.environment["AMQP_URL"]

    /// Whether a broker is there; integration suites are skipped (with a message naming scripts/test) without one.
    static var isAvailable: Bool { url != nil }

    /// The broker's configuration, with a connection name tests can find it by.
    static func configuration(name: String = #function) throws -> AMQPConfiguration {
        var configuration = try AMQPConfiguration(url: url ?? "")
        configuration.connectionName = connectionName(name)
        return configuration
    }

    /// A connection name unique to one test, which `rabbitmqctl list_connections` shows.
    static func connectionName(_ test: String) -> String {
        "amqp-tests \(test) \(UUID().uuidString.prefix(8))"
    }

    static func connect(name: String = #function, heartbeat: Duration = .seconds(30)) async throws -> AMQPConnection {
        var configuration = try configuration(name: name)
        configuration.heartbeat = heartbeat
        return try await AMQPConnection.connect(configuration)
    }

    /// What most tests start from: a connection, a channel on it, and a server-named queue only that connection
    /// uses; `confirms` puts the channel in publisher-confirm mode.
    static func exclusiveQueue(
        name: String = #function, confirms: Bool = false, arguments: FieldTable = [:]
    ) async throws -> (AMQPConnection, AMQPChannel, String) {
        let connection = try await connect(name: name)
        let channel = try await connection.openChannel()
        let queue = try await channel.declareQueue("", durable: false, exclusive: true, arguments: arguments).name
        if confirms {
            try await channel.enablePublisherConfirms()
        }
        return (connection, channel, queue)
    }

    /// A name no other test uses, for queues and exchanges.
    static func uniqueName(_ prefix: String = "amqp-test") -> String {
        "\(prefix)-\(UUID().uuidString.prefix(12))"
    }

    /// Runs `rabbitmqctl` against the test broker through `scripts/broker ctl`, which knows its node name from
    /// the port in AMQP_URL, and returns its output. It takes a second or two, on a thread of its own so the
    /// tests' tasks keep running.
    @discardableResult
    static func ctl(_ arguments: String...) async throws -> String {
        try await ctl(arguments)
    }

    @discardableResult
    static func ctl(_ arguments: [String]) async throws -> String {
        let configuration = try AMQPConfiguration(url: url ?? "")
        let script = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/broker")
        let process = Process()
        process.executableURL = script
        process.arguments = ["ctl"] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["BROKER_PORT": "\(configuration.port)"]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = await withCheckedContinuation { continuation in
            Thread {
                let data = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: data)
            }.start()
        }
        guard process.terminationStatus == 0 else { throw CtlFailed(arguments: arguments, status: process.terminationStatus) }
        return String(decoding: data, as: UTF8.self)
    }

    /// Closes a connection from the broker's side, like an operator would (`rabbitmqctl close_connection`).
    static func forceClose(connectionNamed name: String) async throws {
        let line = try await connectionLine(named: name, columns: "pid")
        guard let pid = line?.split(separator: "\t").first else { throw CtlFailed(arguments: ["find", name], status: 0) }
        try await ctl("close_connection", String(pid), "closed by the integration test")
    }

    /// The `rabbitmqctl list_connections` line of the connection named `name`: `columns`, then its client
    /// properties (where the name is); nil when the broker has no such connection.
    static func connectionLine(named name: String, columns: String...) async throws -> Substring? {
        try await ctl(["list_connections", "--no-table-headers"] + columns + ["client_properties"])
            .split(separator: "\n").first { $0.contains(name) }
    }

    struct CtlFailed: Error, CustomStringConvertible {
        var arguments: [String]
        var status: Int32
        var description: String { "scripts/broker ctl \(arguments.joined(separator: " ")) failed (\(status))" }
    }
}

/// Runs `operation`, failing with ``TimedOut`` if it takes longer than `limit`: keeps a broken test from hanging,
/// even when the operation ignores cancellation (it is cancelled and left behind).
func within<Value: Sendable>(
    _ limit: Duration, _ operation: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        let outcome = Outcome(continuation)
        let work = Task {
            do {
                outcome.resume(with: .success(try await operation()))
            } catch {
                outcome.resume(with: .failure(error))
            }
        }
        Task {
            try? await Task.sleep(for: limit)
            outcome.resume(with: .failure(TimedOut(limit: limit)))
            work.cancel()
        }
    }
}

/// Resumes a continuation with whichever result comes first.
private final class Outcome<Value: Sendable>: Sendable {
    private let state: Mutex<CheckedContinuation<Value, any Error>?>

    init(_ continuation: CheckedContinuation<Value, any Error>) {
        state = Mutex(continuation)
    }

    func resume(with result: Result<Value, any Error>) {
        state.withLock { continuation in
            continuation?.resume(with: result)
            continuation = nil
        }
    }
}

struct TimedOut: Error, CustomStringConvertible {
    var limit: Duration
    var description: String { "still waiting after \(limit)" }
}

/// Collects a consumer's deliveries in the background, so tests can look at what arrived so far.
final class DeliveryCollector: Sendable {
    /// How a consumer's sequence ended.
    enum End: Equatable, Sendable {
        /// Finished normally, after a cancel.
        case finished
        /// Threw this error.
        case failed(AMQPError)
    }

    private struct State {
        var deliveries: [AMQPDelivery] = []
        var end: End?
    }

    private final class Storage: Sendable {
        let state = Mutex(State())
    }

    private let storage = Storage()
    private let task: Task<Void, Never>

    init(_ consumer: AMQPConsumer) {
        let storage = self.storage
        task = Task {
            do throws(AMQPError) {
                for try await delivery in consumer {
                    storage.state.withLock { $0.deliveries.append(delivery) }
                }
                storage.state.withLock { $0.end = .finished }
            } catch {
                storage.state.withLock { $0.end = .failed(error) }
            }
        }
    }

    deinit {
        task.cancel()
    }

    var deliveries: [AMQPDelivery] { storage.state.withLock { $0.deliveries } }

    /// How the consumer's sequence ended, `nil` while it runs.
    var end: End? { storage.state.withLock { $0.end } }

    /// Waits until at least `count` deliveries arrived.
    @discardableResult
    func waitFor(_ count: Int, limit: Duration = .seconds(20)) async throws -> [AMQPDelivery] {
        try await poll(limit) { $0.deliveries.count >= count ? $0.deliveries : nil }
    }

    /// Waits until the sequence ended.
    func waitForEnd(limit: Duration = .seconds(20)) async throws -> End {
        try await poll(limit) { $0.end }
    }

    private func poll<Value: Sendable>(_ limit: Duration, _ check: (State) -> Value?) async throws -> Value {
        let deadline = ContinuousClock.now + limit
        while true {
            if let value = storage.state.withLock({ check($0) }) { return value }
            guard ContinuousClock.now < deadline else { throw TimedOut(limit: limit) }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}

/// Records a connection's events in the background, so tests can wait for one.
final class EventRecorder: Sendable {
    private final class Storage: Sendable {
        let events = Mutex<[AMQPConnectionEvent]>([])
    }

    private let storage = Storage()
    private let task: Task<Void, Never>

    init(_ connection: AMQPConnection) {
        let storage = self.storage
        task = Task {
            for await event in connection.events {
                storage.events.withLock { $0.append(event) }
            }
        }
    }

    deinit {
        task.cancel()
    }

    /// Waits until an event `matches` accepts was recorded.
    func waitFor(
        limit: Duration = .seconds(30), _ matches: @Sendable (AMQPConnectionEvent) -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + limit
        while !storage.events.withLock({ $0.contains(where: matches) }) {
            guard ContinuousClock.now < deadline else { throw TimedOut(limit: limit) }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
