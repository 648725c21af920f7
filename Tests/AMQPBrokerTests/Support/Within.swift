import Synchronization

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
