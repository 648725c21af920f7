import NotificationEvents
import Responder

/// A photo-category extension that waits for `gate` before it counts the event in its state and sets a button named
/// after it: on every event, or only on `gatedEvent`. It records its calls, whether it saw its task cancelled, and
/// when a call started and finished. With `heedsCancellation` it stops waiting when cancelled, as a well-behaved
/// handler does; without, it waits for the gate whatever happens.
struct GatedExtension: NotificationContentExtension {
    let name: String
    let categoryIdentifiers: Set<String> = ["photo-category"]
    let initialState = 0
    let gate: Signal
    let heedsCancellation: Bool
    let gatedEvent: String?
    let sawCancellation = Flag()
    let started = Signal()
    let finished = Signal()
    let calls = CallCount()

    init(name: String = "slow", gate: Signal, heedsCancellation: Bool, gatedEvent: String? = nil) {
        self.name = name
        self.gate = gate
        self.heedsCancellation = heedsCancellation
        self.gatedEvent = gatedEvent
    }

    func didReceive(_ response: NotificationResponse, context: inout ExtensionContext<Int>) async throws -> ResponseOption {
        calls.increment()
        await started.fire()
        defer { Task { await finished.fire() } }
        if gatedEvent == nil || gatedEvent == context.eventID {
            await withTaskCancellationHandler { await gate.wait() } onCancel: { sawCancellation.raise() }
            // Cancelled, the wait ended: the handler returns at once, as one that passes cancellation on does.
            if heedsCancellation { try Task.checkCancellation() }
        }
        context.state += 1
        context.setNotificationActions([NotificationAction(identifier: context.eventID, title: "Seen")])
        return .doNotDismiss
    }
}
