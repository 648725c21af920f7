import Foundation

/// Runs short helper programs (rabbitmqctl, scripts) from async tests without blocking their tasks.
public enum ChildProcess {
    /// The exit status and combined output of `executable`.
    public static func run(
        _ executable: URL, arguments: [String], environment: [String: String] = [:]
    ) async throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        // Reading to the end on a thread of its own keeps a chatty child from filling the pipe and stalling.
        let data = await withCheckedContinuation { continuation in
            Thread {
                let data = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: data)
            }.start()
        }
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
