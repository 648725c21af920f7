import Synchronization

/// The event ids of a harness's responses: `request/test-N`, N counting every response the harness sent, so each
/// call is a new event.
package final class TestEventIDs: Sendable {
    private let count = Mutex(0)

    package init() {}

    /// A new event id on the notification `request`.
    package func next(for request: String) -> String {
        let number = count.withLock { count in
            count += 1
            return count
        }
        return "\(request)/test-\(number)"
    }
}
