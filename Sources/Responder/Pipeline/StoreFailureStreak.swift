import NotificationEvents
import Synchronization

/// The backstop for store failures no rule recognises as the store's: when ``threshold`` different events in a
/// row fail on the store with errors that are not ``StateStoreUnavailable``, the store is taken to be unavailable
/// after all, since one event's bad value fails that event and lets the others through.
///
/// Without it an unrecognised error of a broken database (one no store maps, a new SQLSTATE) would send every
/// input through the retry queues to the dead-letter queue while the worker reports ready. A commit that works
/// ends the streak (a load is not enough: a revoked write grant fails only commits); until then each further store failure pauses again at once, so a store that answers the
/// pause's check but still fails does not let the next inputs through to the retry queues.
final class StoreFailureStreak: Sendable {
    /// Different events failing in a row that make the store unavailable: more than the few a broken batch of
    /// values fails together, few enough that a failing database retries a handful of inputs before it pauses.
    static let threshold = 10

    private struct State {
        var events: Set<String> = []
    }

    private let state = Mutex(State())

    /// Records that the store failed `eventID` with `error`; returns the unavailability to report instead when the
    /// streak has reached ``threshold`` different events.
    func failed(_ eventID: String, _ error: any Error) -> StateStoreUnavailable? {
        let count = state.withLock { state in
            if state.events.count < Self.threshold { state.events.insert(eventID) }
            return state.events.count
        }
        guard count >= Self.threshold else { return nil }
        return StateStoreUnavailable(
            reason: "\(Self.threshold) different events in a row failed on the state store; the last: "
                + DeadLetterInfo.boundedDetail(String(describing: error)))
    }

    /// Records that the store committed (or answered a commit): the streak ends.
    func worked() {
        state.withLock { $0.events.removeAll() }
    }
}
