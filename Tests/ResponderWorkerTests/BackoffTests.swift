import ResponderWorker
import Testing

/// Reconnection delays: random (full jitter) under a ceiling that doubles per attempt up to the maximum.
@Suite struct BackoffTests {
    /// A generator that always returns one value, to pin a delay to the bottom or the top of its range.
    struct Constant: RandomNumberGenerator {
        var value: UInt64
        mutating func next() -> UInt64 { value }
    }

    let backoff = Backoff(initial: .milliseconds(200), maximum: .seconds(30))

    @Test func theCeilingDoublesPerAttemptUpToTheMaximum() {
        var top = Constant(value: .max)
        let ceilings = (0..<12).map { backoff.delay(attempt: $0, using: &top) }
        #expect(ceilings == [
            .milliseconds(200), .milliseconds(400), .milliseconds(800), .milliseconds(1600), .milliseconds(3200),
            .milliseconds(6400), .milliseconds(12_800), .milliseconds(25_600), .seconds(30), .seconds(30),
            .seconds(30), .seconds(30),
        ])
    }

    @Test func theFloorIsZero() {
        // 1, not 0: the standard library's rejection sampling would wait forever for a generator stuck at 0.
        var bottom = Constant(value: 1)
        #expect(backoff.delay(attempt: 5, using: &bottom) == .zero)
    }

    @Test func delaysStayWithinTheirBoundsForAnyAttempt() {
        var random = SystemRandomNumberGenerator()
        for attempt in [0, 1, 3, 7, 20, 62, 63, 1000, Int.max] {
            for _ in 0..<200 {
                let delay = backoff.delay(attempt: attempt, using: &random)
                #expect(delay >= .zero && delay <= .seconds(30), "attempt \(attempt): \(delay)")
                if attempt == 0 { #expect(delay <= .milliseconds(200)) }
            }
        }
    }

    @Test func delaysAreSpread() {
        var random = SystemRandomNumberGenerator()
        let delays = Set((0..<100).map { _ in backoff.delay(attempt: 10, using: &random) })
        #expect(delays.count > 10, "jitter spreads reconnections")
    }
}
