import Foundation

/// Polls `condition` every 100 ms until it holds; throws, naming `what`, after `timeout`.
public func waitFor(
    timeout: Duration = .seconds(60), _ what: String, _ condition: @Sendable () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw HarnessError("timed out after \(timeout) waiting for \(what)") }
        try await Task.sleep(for: .milliseconds(100))
    }
}
