import NotificationEvents
import Responder
import Synchronization
import WorkerHarness

/// A handler that hangs on purpose, for the suites of handler timeouts. The notification's identifier says how the
/// first event on it behaves: `…-sleeps` waits an hour (a sleep ends when its task is cancelled), `…-ignores` waits
/// for ``release()`` whatever happens (it ignores cancellation), anything else answers at once. The first event is
/// the one whose id is the notification's own or ends in `-e1`; later ones answer at once. An answer shows a button
/// named after the event, so each one publishes an update.
struct HangingHandler: NotificationContentExtension {
    struct State: Codable, Sendable {}

    static let category = FlakyHandler.category

    let name = "hanging"
    let categoryIdentifiers: Set<String> = [category]
    let initialState = State()
    let calls: FlakyHandler.Calls
    let gate: Gate

    /// Where the handlers that ignore cancellation wait, until ``open()``.
    final class Gate: Sendable {
        private let state = Mutex<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

        func wait() async {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state in
                    if !state.open { state.waiting.append(continuation) }
                    return state.open
                }
                if now { continuation.resume() }
            }
        }

        func open() {
            let waiting = state.withLock { state in
                state.open = true
                defer { state.waiting = [] }
                return state.waiting
            }
            for continuation in waiting { continuation.resume() }
        }
    }

    func didReceive(_ response: NotificationResponse, context: inout ExtensionContext<State>) async throws -> ResponseOption {
        _ = calls.record(request: context.requestIdentifier, event: context.eventID)
        if context.eventID == context.requestIdentifier || context.eventID.hasSuffix("-e1") {
            switch context.requestIdentifier.split(separator: "-").last {
            case "sleeps": try await Task.sleep(for: .seconds(3600))
            case "ignores": await gate.wait()
            default: break
            }
        }
        context.setNotificationActions([NotificationAction(identifier: context.eventID, title: "Done")])
        return .doNotDismiss
    }

    /// A registry with the category of ``FlakyHandler`` and this handler, limited to `timeout`.
    static func registry(_ calls: FlakyHandler.Calls, gate: Gate, timeout: Duration) throws -> HandlerRegistry {
        var registry = HandlerRegistry()
        registry.register(NotificationCategory(identifier: category, actions: [NotificationAction(identifier: "poke", title: "Poke")]))
        try registry.register(HangingHandler(calls: calls, gate: gate), timeout: timeout)
        return registry
    }
}
