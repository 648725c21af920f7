import Foundation
import NotificationEvents
import Responder

/// A thread-safe list of what handlers saw, in order.
final class Journal<Entry: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Entry] = []

    func append(_ entry: Entry) {
        lock.withLock { storage.append(entry) }
    }

    var entries: [Entry] { lock.withLock { storage } }
}

/// One handler call as the tests' handlers record it.
struct Call: Sendable, Hashable {
    var handler: String
    var eventID: String
    var action: String
    var userText: String?
    var forwarded: Bool = false
}

/// A configurable extension: counts taps in its state, sets the action sets it is told to (the last wins),
/// answers `option`, and fails when `failure` says so.
struct TestExtension: NotificationContentExtension {
    struct State: Codable, Sendable, Hashable {
        var taps = 0
    }

    var name = "test-extension"
    var categoryIdentifiers: Set<String> = ["photo-category"]
    var initialState: State { State() }
    var journal = Journal<Call>()
    var actionSets: @Sendable (State) -> [[NotificationAction]] = { _ in [] }
    var option: ResponseOption = .doNotDismiss
    var failure: @Sendable () -> (any Error)? = { nil }

    func didReceive(
        _ response: NotificationResponse, context: inout ExtensionContext<State>
    ) async throws -> ResponseOption {
        journal.append(
            Call(
                handler: name, eventID: context.eventID, action: response.actionIdentifier.rawValue,
                userText: response.userText))
        context.state.taps += 1
        for actions in actionSets(context.state) { context.setNotificationActions(actions) }
        if let error = failure() { throw error }
        return option
    }
}

/// An app delegate that records its calls and fails when told to.
struct TestDelegate: UserNotificationCenterDelegate {
    var journal = Journal<Call>()
    var failure: @Sendable () -> (any Error)? = { nil }

    func didReceive(_ response: NotificationResponse, context: inout DelegateContext) async throws {
        journal.append(
            Call(
                handler: "delegate", eventID: context.eventID, action: response.actionIdentifier.rawValue,
                userText: response.userText, forwarded: context.isForwarded))
        if let error = failure() { throw error }
    }
}

struct Boom: Error, CustomStringConvertible {
    var description: String { "boom" }
}

enum Fixtures {
    static let like = NotificationAction(identifier: "like-action", title: "Like")
    static let share = NotificationAction(identifier: "share-action", title: "Share", options: [.foreground])
    static let reply = NotificationAction(
        identifier: "reply-action", title: "Reply",
        textInput: NotificationAction.TextInput(buttonTitle: "Send", placeholder: "Say something"))

    /// `photo-category` (extension, customDismissAction), `plain-category` (no extension, no customDismissAction),
    /// `mail-category` (no extension, customDismissAction).
    static func registry(
        extension handler: TestExtension? = TestExtension(), delegate: TestDelegate? = TestDelegate()
    ) throws -> HandlerRegistry {
        var registry = HandlerRegistry(
            categories: CategoryRegistry([
                NotificationCategory(
                    identifier: "photo-category", actions: [like, share, reply], options: [.customDismissAction]),
                NotificationCategory(identifier: "plain-category", actions: [like]),
                NotificationCategory(identifier: "mail-category", actions: [reply], options: [.customDismissAction]),
            ]))
        if let handler { try registry.register(handler) }
        if let delegate { registry.setDelegate(delegate) }
        return registry
    }
}
