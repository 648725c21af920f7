import Synchronization

@testable import AMQP

/// Where the state machine's reply to one call lands, to read after the frames that answer it.
final class Outcome<Value: Sendable>: Sendable {
    private let stored = Mutex<Result<Value, AMQPError>?>(nil)
    private let count = Atomic<Int>(0)

    /// The reply closure to hand the state machine.
    var reply: Reply<Value> {
        { [self] result in
            count.add(1, ordering: .relaxed)
            stored.withLock { $0 = result }
        }
    }

    /// Whether the call was answered.
    var isAnswered: Bool { count.load(ordering: .relaxed) > 0 }

    /// How often the call was answered (once, or it is a bug).
    var answers: Int { count.load(ordering: .relaxed) }

    /// The reply; a test that reads it before the answer fails.
    var value: Result<Value, AMQPError> {
        get throws {
            guard let result = stored.withLock({ $0 }) else { throw Unanswered() }
            return result
        }
    }

    /// The error the call failed with, or `nil` when it succeeded or is unanswered.
    var error: AMQPError? {
        guard case .failure(let error)? = stored.withLock({ $0 }) else { return nil }
        return error
    }

    struct Unanswered: Error {}
}
