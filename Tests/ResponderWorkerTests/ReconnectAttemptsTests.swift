@testable import ResponderWorker
import Testing

/// Reconnections after sessions the broker ends at once back off further each time; a session that proved itself
/// starts the count over.
@Suite struct ReconnectAttemptsTests {
    let backoff = Backoff(initial: .milliseconds(200), maximum: .seconds(30))

    /// The ceiling of each delay, with a generator pinned to the top of the range.
    private func ceilings(_ attempts: inout ReconnectAttempts, sessions: [(receivedInput: Bool, lasted: Duration)])
        -> [Duration]
    {
        var top = BackoffTests.Constant(value: .max)
        return sessions.map { session in
            attempts.sessionEnded(receivedInput: session.receivedInput, lasted: session.lasted)
            return attempts.nextDelay(using: &top)
        }
    }

    @Test func sessionsCancelledAtOnceBackOffFurtherEachTime() {
        var attempts = ReconnectAttempts(backoff: backoff)
        let delays = ceilings(&attempts, sessions: Array(repeating: (false, .milliseconds(5)), count: 5))
        #expect(delays == [.milliseconds(200), .milliseconds(400), .milliseconds(800), .milliseconds(1600), .milliseconds(3200)])
        #expect(attempts.count == 5)
    }

    @Test func aSessionThatReceivedAnInputStartsTheCountOver() {
        var attempts = ReconnectAttempts(backoff: backoff)
        let delays = ceilings(
            &attempts, sessions: [(false, .milliseconds(5)), (false, .milliseconds(5)), (true, .milliseconds(5)), (false, .zero)])
        #expect(delays == [.milliseconds(200), .milliseconds(400), .milliseconds(200), .milliseconds(400)])
    }

    @Test func aSessionThatLastedTheLongestDelayStartsTheCountOver() {
        var attempts = ReconnectAttempts(backoff: backoff)
        let delays = ceilings(
            &attempts, sessions: [(false, .zero), (false, .zero), (false, .seconds(29)), (false, .seconds(30))])
        #expect(delays == [.milliseconds(200), .milliseconds(400), .milliseconds(800), .milliseconds(200)])
    }

    @Test func failedConnectionsWithoutASessionKeepCounting() {
        var attempts = ReconnectAttempts(backoff: backoff)
        var top = BackoffTests.Constant(value: .max)
        let delays = (0..<3).map { _ in attempts.nextDelay(using: &top) }
        #expect(delays == [.milliseconds(200), .milliseconds(400), .milliseconds(800)])
    }
}
