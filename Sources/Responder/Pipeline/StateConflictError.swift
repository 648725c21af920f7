/// The notification kept changing under a response (other processes committed first) until the retries ran out.
public struct StateConflictError: Error, CustomStringConvertible {
    /// How many times the response was handled.
    public var attempts: Int

    public var description: String {
        "the notification changed under the response \(attempts) times in a row; try again later"
    }
}
