/// A handler error that retrying cannot fix: the response is dead-lettered at once.
public struct PermanentFailure: HandlerFailure, CustomStringConvertible {
    /// What went wrong.
    public var underlying: any Error

    /// Marks `underlying` as permanent.
    public init(_ underlying: any Error) {
        self.underlying = underlying
    }

    /// A permanent failure described by `message` alone.
    public init(_ message: String) {
        self.underlying = Message(text: message)
    }

    public var isRetryable: Bool { false }

    public var description: String { String(describing: underlying) }

    private struct Message: Error, CustomStringConvertible {
        var text: String
        var description: String { text }
    }
}
