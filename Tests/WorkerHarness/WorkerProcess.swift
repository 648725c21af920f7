import BrokerHarness
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `responder run` child process on the test broker, with its own topology, state file, metrics port and log.
public final class WorkerProcess: @unchecked Sendable {
    /// The port of its /metrics and /health endpoints.
    public let metricsPort: Int
    /// Where its stderr (the log) goes.
    public let log: URL
    private let process: Process

    /// Starts `responder run` with `topology`'s names, state in `statePath`, and `environment` added (for example
    /// `RESPONDER_FAULT`). Its log level is debug, so tests can read how it handled each input. With a
    /// `workingDirectory`, it runs there, as if on a machine of its own, and logs there. `executable` is another
    /// program of the same commands (``Paths/followUpResponder``).
    public init(
        topology: TestTopology, statePath: String, environment: [String: String] = [:], arguments: [String] = [],
        workingDirectory: URL? = nil, executable: URL = Paths.responder
    ) throws {
        let port = try FreePort.find()
        metricsPort = port
        log = workingDirectory.map { $0.appendingPathComponent("responder.\(port).log") }
            ?? URL(fileURLWithPath: statePath + ".\(port).log")
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
            throw HarnessError("cannot create \(log.path)")
        }
        process = Process()
        process.executableURL = executable
        process.arguments = ["run"] + arguments
        process.currentDirectoryURL = workingDirectory
        var variables = ProcessInfo.processInfo.environment.merging(topology.environment) { $1 }
        variables["RESPONDER_AMQP_URL"] = TestBroker.url
        variables["RESPONDER_STATE"] = statePath
        variables["RESPONDER_METRICS_PORT"] = String(metricsPort)
        variables["RESPONDER_METRICS_HOST"] = "127.0.0.1"
        variables["RESPONDER_LOG_LEVEL"] = "debug"
        variables["RESPONDER_WORKER_ID"] = "\(topology.prefix)-\(metricsPort)"
        process.environment = variables.merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
    }

    /// The child's pid.
    public var pid: Int32 { process.processIdentifier }

    /// Whether the child is still running.
    public var isRunning: Bool { process.isRunning }

    /// Sends `signal` (SIGTERM, SIGKILL, ...).
    public func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the child to exit and returns its status; throws when it is still running after `timeout`.
    @discardableResult
    public func waitForExit(timeout: Duration = hangGuard) async throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            guard ContinuousClock.now < deadline else { throw HarnessError("worker still running after \(timeout)") }
            try await Task.sleep(for: .milliseconds(50))
        }
        return process.terminationStatus
    }

    /// The HTTP status of `path` on the metrics port, or nil when nothing answers.
    public func status(of path: String) async -> Int? {
        guard let url = URL(string: "http://127.0.0.1:\(metricsPort)\(path)") else { return nil }
        var request = URLRequest(url: url)
        request.timeoutInterval = 2
        guard let (_, response) = try? await URLSession.shared.data(for: request) else { return nil }
        return (response as? HTTPURLResponse)?.statusCode
    }

    /// The body of `path` on the metrics port (e.g. the reasons `/health/ready` gives), or nil when nothing answers.
    public func text(of path: String) async -> String? {
        guard let url = URL(string: "http://127.0.0.1:\(metricsPort)\(path)"),
            let (data, _) = try? await URLSession.shared.data(from: url)
        else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The body of `/metrics`.
    public func metrics() async throws -> String {
        let url = URL(string: "http://127.0.0.1:\(metricsPort)/metrics")!
        let (data, _) = try await URLSession.shared.data(from: url)
        return String(decoding: data, as: UTF8.self)
    }

    /// The sum of every sample of the metric `name` on /metrics (all label sets), 0 when it has none yet.
    public func metric(_ name: String) async throws -> Double {
        try await metrics().split(separator: "\n").reduce(0) { sum, line in
            guard line.hasPrefix(name), let rest = line.dropFirst(name.count).first, rest == "{" || rest == " ",
                let value = line.split(separator: " ").last.flatMap({ Double($0) })
            else { return sum }
            return sum + value
        }
    }

    /// Waits until `/health/ready` answers 200.
    public func waitUntilReady(timeout: Duration = hangGuard) async throws {
        try await waitFor(timeout: timeout, "worker ready") { await self.status(of: "/health/ready") == 200 }
    }

    /// The log so far.
    public var logText: String {
        (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    }

    /// The lines of the log so far that contain `text`.
    public func logLines(containing text: String) -> [Substring] {
        logText.split(separator: "\n").filter { $0.contains(text) }
    }

    /// Waits until at least `count` lines of the log contain `text`. The worker writes a log line after the metrics
    /// and readiness that go with it, so a test that saw those must still wait for the line.
    public func waitForLog(_ text: String, count: Int = 1, timeout: Duration = hangGuard) async throws {
        try await waitFor(timeout: timeout, "\(count) log lines with \"\(text)\"") {
            self.logLines(containing: text).count >= count
        }
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
