/// A replay stopped because its state store became unavailable (``StateStoreUnavailable``): a full disk, an I/O
/// error, a lock held too long. The outputs of the lines before `line` were written; nothing of `line` and after.
///
/// Lines after it may have been handled and committed already (several notifications are handled at once): a
/// second replay on the same store writes their stored outputs again, byte for byte, so it completes the first.
public struct ReplayStoreUnavailable: Error, Sendable, Hashable, CustomStringConvertible {
    /// The fixture line (from 1) whose event met the unavailable store first in input order.
    public var line: Int
    /// What the store reported.
    public var unavailable: StateStoreUnavailable

    public var description: String {
        "replay stopped at line \(line): \(unavailable); the outputs of the lines before it were written, and "
            + "replaying again on the same state once the store works writes the rest"
    }
}
