import Synchronization

/// A flag shared between a test and its handlers: raised by a cancellation handler, or saying that a dependency is
/// down.
final class Flag: Sendable {
    private let raised = Atomic<Bool>(false)
    var isRaised: Bool { raised.load(ordering: .relaxed) }
    func raise() { raised.store(true, ordering: .relaxed) }
    func lower() { raised.store(false, ordering: .relaxed) }
}
