import Synchronization

/// An unbounded queue from any number of producers to one consuming task, which takes everything queued at once.
///
/// It stands where an `AsyncStream` would between the worker's loops: a producer appends under a lock and wakes
/// the consumer only when it is waiting; the consumer takes the whole queue in one step (``take(into:)``), so a
/// burst of elements costs one wake-up and one lock round trip instead of one each. `AsyncStream` is not
/// specialized for its element type, and its generic storage costs a few thousand instructions per element.
/// It is not a faster twin of `AsyncStream` but the only way in the project to take a batch: an `AsyncStream`
/// cannot hand over what is queued without waiting for one more element, and the scheduler's passes ("all that
/// arrived since the last one") and the confirming and settling loops' shared acks are built on taking it all.
///
/// Iterating it with `for await` yields the elements one by one. Iteration ends once ``finish()`` was called and
/// everything before it was taken, or when the consuming task is cancelled.
public final class HandOff<Element: Sendable>: AsyncSequence, Sendable {
    private struct State {
        var queued: [Element] = []
        var waiting: UnsafeContinuation<Void, Never>?
        var finished = false
        var cancelled = false
    }

    /// Iteration never throws.
    public typealias Failure = Never

    private let state = Mutex(State())

    /// An empty, open queue.
    public init() {}

    /// Queues `element` for the consumer; does nothing once ``finish()`` was called.
    public func yield(_ element: Element) {
        let waiting = state.withLock { state -> UnsafeContinuation<Void, Never>? in
            guard !state.finished else { return nil }
            state.queued.append(element)
            defer { state.waiting = nil }
            return state.waiting
        }
        waiting?.resume()
    }

    /// Queues `elements`, in order, with one lock round trip and at most one wake-up; does nothing once
    /// ``finish()`` was called.
    public func yield(contentsOf elements: [Element]) {
        guard !elements.isEmpty else { return }
        let waiting = state.withLock { state -> UnsafeContinuation<Void, Never>? in
            guard !state.finished else { return nil }
            state.queued += elements
            defer { state.waiting = nil }
            return state.waiting
        }
        waiting?.resume()
    }

    /// Says nothing more comes: the consumer takes what is queued, then its ``take(into:)`` returns `false`.
    public func finish() {
        let waiting = state.withLock { state -> UnsafeContinuation<Void, Never>? in
            state.finished = true
            defer { state.waiting = nil }
            return state.waiting
        }
        waiting?.resume()
    }

    /// Waits until something is queued and moves all of it into `batch`, which must be empty (its storage is
    /// reused for the next elements). Returns `false`, with `batch` still empty, once the queue is finished and
    /// drained or the calling task is cancelled. Call from one task at a time.
    public func take(into batch: inout [Element]) async -> Bool {
        precondition(batch.isEmpty, "take(into:) needs an empty batch")
        while true {
            let finished = state.withLock { state -> Bool? in
                if !state.queued.isEmpty {
                    swap(&state.queued, &batch)
                    return false
                }
                return state.finished || state.cancelled ? true : nil
            }
            if let finished { return !finished }
            await withTaskCancellationHandler {
                await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                    let wakeNow = state.withLock { state in
                        guard state.queued.isEmpty, !state.finished, !state.cancelled else { return true }
                        state.waiting = continuation
                        return false
                    }
                    if wakeNow { continuation.resume() }
                }
            } onCancel: {
                let waiting = state.withLock { state -> UnsafeContinuation<Void, Never>? in
                    state.cancelled = true
                    defer { state.waiting = nil }
                    return state.waiting
                }
                waiting?.resume()
            }
        }
    }

    /// An iterator over the elements one by one; there must be one at a time.
    public func makeAsyncIterator() -> Iterator {
        Iterator(handOff: self)
    }

    /// Yields the elements in the order they were queued, taking them a batch at a time.
    public struct Iterator: AsyncIteratorProtocol {
        /// Iteration never throws.
        public typealias Failure = Never

        let handOff: HandOff
        /// The rest of the batch taken last, last element first, so each leaves it at once.
        private var batch: [Element] = []

        init(handOff: HandOff) {
            self.handOff = handOff
        }

        /// The next element, or `nil` once the queue is finished and drained or the task is cancelled.
        public mutating func next() async -> Element? {
            if batch.isEmpty {
                guard await handOff.take(into: &batch) else { return nil }
                batch.reverse()
            }
            return batch.popLast()
        }
    }
}
