/// A wait of a test that ran past its limit.
struct TimedOut: Error, CustomStringConvertible {
    var limit: Duration
    var description: String { "still waiting after \(limit)" }
}
