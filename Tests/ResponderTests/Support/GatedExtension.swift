import NotificationEvents
import Responder

/// A photo-category extension that waits for `gate` before it counts the event in its state and sets a button named
/// after it: on every event, or only on `gatedEvent`. It records its calls, whether it saw its task cancelled, and
/// when a call started and finished. The wait for the gate does not end at cancellation (it notes it); once the gate
/// opens, with `heedsCancellation` a cancelled call throws, as a handler that passes cancellation on does, and without
/// it the call goes on as if nothing happened.
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
            // Cancelled meanwhile: a handler that passes cancellation on throws now.
            if heedsCancellation { try Task.checkCancellation() }
        }
        context.state += 1
        context.setNotificationActions([NotificationAction(identifier: context.eventID, title: "Seen")])
        return .doNotDismiss
    }
}
