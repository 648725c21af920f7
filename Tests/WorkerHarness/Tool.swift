import BrokerHarness
import Foundation

/// A `responder` command (or any program) running as a child process, its stdout and stderr in files of their own
/// so a test can read each while it runs and after.
public final class Tool: @unchecked Sendable {
    private let process = Process()
    private let folder: URL
    private let stdoutFile: URL
    private let stderrFile: URL

    /// Starts `executable` (the `responder` of this build by default) with `arguments`, the test's environment and
    /// `environment` added, in `directory` (the test's own by default).
    public init(
        _ arguments: [String], environment: [String: String] = [:], executable: URL = Paths.responder,
        directory: URL? = nil
    ) throws {
        folder = try Paths.temporaryFolder("responder-tool")
        stdoutFile = folder.appendingPathComponent("stdout")
        stderrFile = folder.appendingPathComponent("stderr")
        guard FileManager.default.createFile(atPath: stdoutFile.path, contents: nil),
            FileManager.default.createFile(atPath: stderrFile.path, contents: nil)
        else { throw HarnessError("cannot create the output files in \(folder.path)") }
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: stdoutFile)
        process.standardError = try FileHandle(forWritingTo: stderrFile)
        try process.run()
    }

    /// Runs `arguments` to the end and returns how it ended.
    public static func run(
        _ arguments: [String], environment: [String: String] = [:], executable: URL = Paths.responder,
        directory: URL? = nil, timeout: Duration = hangGuard
    ) async throws -> (status: Int32, stdout: String, stderr: String) {
        let tool = try Tool(arguments, environment: environment, executable: executable, directory: directory)
        let status = try await tool.waitForExit(timeout: timeout)
        return (status, tool.stdout, tool.stderr)
    }

    /// What it wrote to stdout so far.
    public var stdout: String { (try? String(contentsOf: stdoutFile, encoding: .utf8)) ?? "" }
    /// What it wrote to stderr so far.
    public var stderr: String { (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? "" }

    /// Waits until stderr contains `text`.
    public func waitForStandardError(containing text: String, timeout: Duration = hangGuard) async throws {
        try await waitFor(timeout: timeout, "\"\(text)\" on stderr") {
            guard self.process.isRunning || self.stderr.contains(text) else {
                throw HarnessError("exited \(self.process.terminationStatus) before saying \"\(text)\": \(self.stderr)")
            }
            return self.stderr.contains(text)
        }
    }

    /// Waits for the child to exit and returns its status; kills it and throws when it runs past `timeout`.
    @discardableResult
    public func waitForExit(timeout: Duration = hangGuard) async throws -> Int32 {
        do {
            try await waitFor(timeout: timeout, "\(process.arguments?.first ?? "the child") to exit") { !self.process.isRunning }
        } catch {
            process.terminate()
            throw HarnessError("\(error); stderr: \(stderr)")
        }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: folder)
    }
}
