/// A batch's outcomes as far as ``ResponsePipeline/handle(_:concurrency:under:holdingBack:on:patience:)`` waited
/// for them.
public struct BatchOutcomes: Sendable {
    /// By batch position; nil for an event held back behind an earlier one of its notification, or in a slow chain.
    public var outcomes: [ResponseOutcome?]
    /// The notifications whose handler calls outlasted the batch's patience.
    public var slowChains: [SlowChain]
}

/// The events of one notification in a batch whose handler call outlasted the batch's patience: they settle on their
/// own, once the call returns or is cut at its deadline.
public struct SlowChain: Sendable {
    /// The events' batch positions, in order.
    public let positions: [Int]
    let settle: @Sendable () async -> [ResponseOutcome?]

    /// The events' outcomes, in the order of ``positions`` (nil: held back behind an earlier one), once the chain's
    /// last call ended and its effects were committed. Cancelling the caller cancels the call.
    public func outcomes() async -> [ResponseOutcome?] { await settle() }
}
