import Foundation

/// How long a test waits, at most, for something it expects: a guard against a hang, well inside each test's
/// ten-minute limit, never a measure of speed. With every suite at once on a small machine a wake-up lags by
/// seconds and a worker can take more than 30 seconds to start (scripts/test), so a shorter wait fails tests of code
/// that works.
public let hangGuard: Duration = .seconds(300)

/// Polls `condition` every 100 ms until it holds; throws, naming `what`, after `timeout`.
public func waitFor(
    timeout: Duration = hangGuard, _ what: String, _ condition: @Sendable () async throws -> Bool
) async throws {
    try await waitForValue(timeout: timeout, what) { try await condition() ? () : nil }
}

/// Reads every 100 ms until `read` gives a value, and returns it; throws, naming `what`, after `timeout`. For what
/// is judged on one reading, as a listing that is whole only once every expected row is in it.
public func waitForValue<Value>(
    timeout: Duration = hangGuard, _ what: String, _ read: @Sendable () async throws -> Value?
) async throws -> Value {
    let deadline = ContinuousClock.now + timeout
    while true {
        if let value = try await read() { return value }
        guard ContinuousClock.now < deadline else { throw HarnessError("timed out after \(timeout) waiting for \(what)") }
        try await Task.sleep(for: .milliseconds(100))
    }
}
