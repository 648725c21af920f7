import AMQP
import Foundation

/// A RabbitMQ node of `scripts/broker`, by port: the suite's shared test broker, or a throwaway node a test starts
/// for faults that would disturb every other suite on the shared one (a broker restart).
public struct BrokerNode: Sendable {
    /// The node's AMQP port.
    public let port: Int
    /// Its AMQP URL.
    public let url: String

    public init(port: Int, url: String) {
        self.port = port
        self.url = url
    }

    /// The broker of `AMQP_URL`, which the other suites share.
    public static func shared() throws -> BrokerNode {
        let url = TestBroker.url ?? ""
        return BrokerNode(port: try AMQPConfiguration(url: url).port, url: url)
    }

    /// Starts a node of its own on a free port; ``stop()`` it when done.
    public static func startThrowaway() async throws -> BrokerNode {
        let port = try freeNodePort()
        let started = try await spawnDetached(
            Paths.root.appendingPathComponent("scripts/broker").path, arguments: ["start"],
            environment: ["BROKER_PORT": "\(port)"])
        guard started.status == 0, let url = started.output.split(separator: "\n").last.map(String.init),
            url.hasPrefix("amqp://")
        else { throw HarnessError("scripts/broker start on port \(port) failed: \(started.output)") }
        return BrokerNode(port: port, url: url)
    }

    /// Runs `body` with a throwaway node, and stops the node afterwards whatever happened.
    public static func withThrowaway<Value>(_ body: (BrokerNode) async throws -> Value) async throws -> Value {
        let node = try await startThrowaway()
        do {
            let value = try await body(node)
            await node.stop()
            return value
        } catch {
            await node.stop()
            throw error
        }
    }

    /// Stops a throwaway node and removes its files.
    public func stop() async {
        _ = try? await ChildProcess.run(
            Paths.root.appendingPathComponent("scripts/broker"), arguments: ["stop"], environment: ["BROKER_PORT": "\(port)"])
    }

    /// Runs `rabbitmqctl` against the node and returns its output.
    @discardableResult
    public func ctl(_ arguments: String...) async throws -> String {
        try await TestBroker.ctl(arguments, port: port)
    }

    /// The broker's ids of the connections whose client-provided name contains `fragment`.
    public func connections(named fragment: String) async throws -> [String] {
        try await ctl("list_connections", "--no-table-headers", "pid", "client_properties")
            .split(separator: "\n").filter { $0.contains(fragment) }.compactMap { $0.split(separator: "\t").first.map(String.init) }
    }

    /// Closes connection `id` from the broker's side, as an operator or a failing node would.
    public func close(connection id: String) async throws {
        try await ctl("close_connection", id, "closed by a reliability test")
    }

    /// Ready and unacknowledged messages per queue whose name starts with `prefix`.
    public func queueCounts(prefix: String) async throws -> [String: QueueCounts] {
        let output = try await ctl("list_queues", "--no-table-headers", "name", "messages_ready", "messages_unacknowledged")
        var counts: [String: QueueCounts] = [:]
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count == 3, fields[0].hasPrefix(prefix), let ready = Int(fields[1]), let unacked = Int(fields[2])
            else { continue }
            counts[fields[0]] = QueueCounts(ready: ready, unacknowledged: unacked)
        }
        return counts
    }

    /// Runs a program that leaves a daemon behind (`scripts/broker start`) and returns its exit status and output.
    ///
    /// Not through Foundation's Process: it learns that a child exited when the child's end of a socket it hands
    /// down closes, and a daemon that inherits that end keeps it open for its whole life, so Process would wait
    /// for the broker to stop. Here the child gets no descriptor but its output file, and waitpid says when it exits.
    public static func spawnDetached(
        _ path: String, arguments: [String], environment: [String: String]
    ) async throws -> (status: Int32, output: String) {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("spawn-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // glibc has it since 2.34, but Swift's Glibc module does not import it.
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let closeFrom = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        else { throw HarnessError("this libc has no posix_spawn_file_actions_addclosefrom_np") }
        _ = unsafeBitCast(closeFrom, to: CloseFrom.self)(&actions, 3)
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0.key)=\($0.value)" }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var spawnedPID: pid_t = 0
        let spawned = posix_spawn(&spawnedPID, path, &actions, nil, argv, envp)
        guard spawned == 0 else { throw HarnessError("posix_spawn \(path) failed: \(spawned)") }
        let pid = spawnedPID
        let status = await withCheckedContinuation { continuation in
            Thread {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) == -1, errno == EINTR {}
                continuation.resume(returning: (status >> 8) & 0xFF)
            }.start()
        }
        return (status, (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "")
    }

    /// A port for a node: scripts/broker also takes port + 20000 for Erlang distribution, so both must be free and
    /// the second one valid; ephemeral ports are too high for that, so this picks from 7000-19999.
    private static func freeNodePort() throws -> Int {
        for _ in 0..<200 {
            let port = Int.random(in: 7000...19999)
            if isFree(port), isFree(port + 20000) { return port }
        }
        throw HarnessError("no free port pair for a throwaway broker")
    }

    private static func isFree(_ port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return false }
        defer { Glibc.close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
