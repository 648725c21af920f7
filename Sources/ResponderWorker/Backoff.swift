/// Capped exponential backoff with full jitter, for reconnecting to the broker and checking an unavailable store.
///
/// Jitter spreads the attempts of many workers after a broker restart or a store outage, so they do not all arrive
/// at once.
public struct Backoff: Sendable, Hashable {
    /// The ceiling of the first delay.
    public var initial: Duration
    /// The largest ceiling any delay can reach.
    public var maximum: Duration

    public init(initial: Duration = .milliseconds(200), maximum: Duration = .seconds(30)) {
        self.initial = initial
        self.maximum = maximum
    }

    /// The delay before reconnection attempt `attempt` (0-based): uniformly random up to
    /// `min(maximum, initial * 2^attempt)`.
    public func delay(attempt: Int, using generator: inout some RandomNumberGenerator) -> Duration {
        let initialSeconds = Double(initial.components.seconds) + Double(initial.components.attoseconds) / 1e18
        let maximumSeconds = Double(maximum.components.seconds) + Double(maximum.components.attoseconds) / 1e18
        let ceiling = min(maximumSeconds, initialSeconds * pow2(min(attempt, 62)))
        return .milliseconds(Int64(Double.random(in: 0...ceiling, using: &generator) * 1000))
    }

    private func pow2(_ exponent: Int) -> Double { Double(UInt64(1) << UInt64(exponent)) }
}
