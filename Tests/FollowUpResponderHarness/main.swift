import NotificationEvents
import Responder
import ResponderCommands

/// Counts a notification's follow-ups: the first tap schedules one, due at once; handling it raises the count and
/// shows it as the only button, so every update of a follow-up says how many were committed.
struct CountingFollowUps: NotificationContentExtension {
    struct State: Codable, Sendable { var taps = 0, followUps = 0 }

    static let category = "follow-up-category"

    let name = "counting-follow-ups"
    let categoryIdentifiers: Set<String> = [category]
    let initialState = State()

    func didReceive(_ response: NotificationResponse, context: inout ExtensionContext<State>) async throws -> ResponseOption {
        context.state.taps += 1
        if context.state.taps == 1 { context.scheduleFollowUp("count", after: .zero) }
        return .doNotDismiss
    }

    func didReceiveFollowUp(_ followUp: FollowUp, context: inout ExtensionContext<State>) async throws {
        context.state.followUps += 1
        context.setNotificationActions([NotificationAction(identifier: "follow-ups-\(context.state.followUps)", title: "")])
    }
}

// `FollowUpResponder`: every `responder` command with ``CountingFollowUps``, for the crash tests of follow-ups
// (ReliabilityTests' FollowUpCrashTests), which kill it with RESPONDER_FAULT as they kill `responder`.
await ResponderCommandLine.main(name: "FollowUpResponder") { registry in
    registry.register(
        NotificationCategory(
            identifier: CountingFollowUps.category, actions: [NotificationAction(identifier: "tap", title: "Tap")]))
    try registry.register(CountingFollowUps())
}
