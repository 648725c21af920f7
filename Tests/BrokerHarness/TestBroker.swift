import AMQP
import Foundation

/// The broker `scripts/broker start` runs for the tests, found through `AMQP_URL`.
public enum TestBroker {
    /// The broker's URL; nil when the tests run without one.
    public static let url = ProcessInfo.processInfo.environment["AMQP_URL"]

    /// The management API of that broker (`scripts/broker management-url`), with the virtual host as its path.
    public static let managementURL = ProcessInfo.processInfo.environment["AMQP_MANAGEMENT_URL"]

    /// Whether a broker is there; broker suites are skipped, with a message naming scripts/test, without one.
    public static var isAvailable: Bool { url != nil }

    /// A connection name unique to the test `name`, which `rabbitmqctl list_connections` shows, so
    /// ``forceClose(connectionsNamed:)`` and operators can find the connection.
    public static func connectionName(_ name: String) -> String {
        "tests \(name) \(UUID().uuidString.prefix(8))"
    }

    /// The configuration of the broker at `url` (the test broker unless given), with a ``connectionName(_:)``
    /// for the test.
    public static func configuration(url: String? = nil, name: String = #function) throws -> AMQPConfiguration {
        var configuration = try AMQPConfiguration(url: url ?? Self.url ?? "")
        configuration.connectionName = connectionName(name)
        return configuration
    }

    /// A connection named after the test (see ``configuration(name:)``).
    public static func connect(name: String = #function) async throws -> AMQPConnection {
        try await AMQPConnection.connect(configuration(name: name))
    }

    /// Runs `rabbitmqctl` against the test broker through `scripts/broker ctl` and returns its output.
    @discardableResult
    public static func ctl(_ arguments: String...) async throws -> String {
        try await ctl(arguments)
    }

    /// Runs `rabbitmqctl` with `arguments` against the test broker and returns its output.
    @discardableResult
    public static func ctl(_ arguments: [String]) async throws -> String {
        try await ctl(arguments, port: AMQPConfiguration(url: url ?? "").port)
    }

    /// Runs `rabbitmqctl` with `arguments` against the `scripts/broker` node on `port` and returns its output.
    @discardableResult
    public static func ctl(_ arguments: [String], port: Int) async throws -> String {
        let result = try await ChildProcess.run(
            Paths.root.appendingPathComponent("scripts/broker"), arguments: ["ctl"] + arguments,
            environment: ["BROKER_PORT": "\(port)"])
        guard result.status == 0 else {
            throw HarnessError("rabbitmqctl \(arguments.joined(separator: " ")) exited \(result.status): \(result.output)")
        }
        return result.output
    }

    /// Closes, from the broker's side, every connection whose client-provided name contains `fragment`; returns
    /// how many it closed.
    @discardableResult
    public static func forceClose(connectionsNamed fragment: String) async throws -> Int {
        let lines = try await ctl("list_connections", "--no-table-headers", "pid", "client_properties")
            .split(separator: "\n").filter { $0.contains(fragment) }
        for line in lines {
            guard let pid = line.split(separator: "\t").first else { continue }
            try await ctl("close_connection", String(pid), "closed by a test")
        }
        return lines.count
    }

    /// The `rabbitmqctl list_connections` line of the connection named `name`: `columns`, then its client
    /// properties (where the name is); nil when the broker has no such connection.
    public static func connectionLine(named name: String, columns: String...) async throws -> Substring? {
        try await ctl(["list_connections", "--no-table-headers"] + columns + ["client_properties"])
            .split(separator: "\n").first { $0.contains(name) }
    }

    /// Stops and starts the broker application (its queues and messages survive, its connections do not).
    public static func restart() async throws {
        try await ctl("stop_app")
        try await ctl("start_app")
    }
}

/// A harness failure, with what went wrong.
public struct HarnessError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
