import Foundation
import NotificationEvents
import Responder
import Synchronization
import WorkerHarness

/// An extension that counts taps per notification; the first tap schedules `expire-share` after ``delay``, whose
/// handling takes the Share button away. It records each follow-up it handles, with the taps it saw and when.
struct FollowingUpHandler: NotificationContentExtension {
    struct State: Codable, Sendable { var taps = 0 }

    /// A follow-up as the handler saw it.
    struct Handled: Sendable, Hashable {
        var id: String
        var taps: Int
        var dueDate: Date
        var handledAt: Date
    }

    final class Journal: Sendable {
        private let entries = Mutex<[Handled]>([])
        func append(_ entry: Handled) { entries.withLock { $0.append(entry) } }
        var handled: [Handled] { entries.withLock { $0 } }
    }

    static let category = "following-up-category"
    static let share = NotificationAction(identifier: "share", title: "Share")
    static let like = NotificationAction(identifier: "like", title: "Like")

    let name = "following-up"
    let categoryIdentifiers: Set<String> = [category]
    let initialState = State()
    var delay: Duration
    let journal: Journal

    func didReceive(_ response: NotificationResponse, context: inout ExtensionContext<State>) async throws -> ResponseOption {
        context.state.taps += 1
        if context.state.taps == 1 { context.scheduleFollowUp("expire-share", after: delay) }
        return .doNotDismiss
    }

    func didReceiveFollowUp(_ followUp: FollowUp, context: inout ExtensionContext<State>) async throws {
        journal.append(Handled(id: followUp.id, taps: context.state.taps, dueDate: followUp.dueDate, handledAt: Date()))
        context.setNotificationActions(context.notificationActions.filter { $0 != Self.share })
    }

    /// A registry with the category (Like and Share) and the handler.
    static func registry(delay: Duration, _ journal: Journal) throws -> HandlerRegistry {
        var registry = HandlerRegistry()
        registry.register(NotificationCategory(identifier: category, actions: [like, share]))
        try registry.register(FollowingUpHandler(delay: delay, journal: journal))
        return registry
    }

    /// A tap on Like, event `id`, on notification `request` delivered at `delivered`.
    static func tap(_ id: String, on request: String, delivered: Date = Events.start) -> NotificationResponseEvent {
        Events.response(id: id, request: request, category: category, action: .custom(like.identifier), delivered: delivered)
    }
}
