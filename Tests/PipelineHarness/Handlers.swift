import Foundation
import NotificationEvents
import Responder

/// A thread-safe list of what handlers saw, in order.
public final class Journal<Entry: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Entry] = []

    public init() {}

    public func append(_ entry: Entry) {
        lock.withLock { storage.append(entry) }
    }

    public var entries: [Entry] { lock.withLock { storage } }
}

/// One handler call as the tests' handlers record it.
public struct Call: Sendable, Hashable {
    public var handler: String
    public var eventID: String
    public var action: String
    public var userText: String?
    public var forwarded: Bool = false

    public init(handler: String, eventID: String, action: String, userText: String? = nil, forwarded: Bool = false) {
        self.handler = handler
        self.eventID = eventID
        self.action = action
        self.userText = userText
        self.forwarded = forwarded
    }
}

/// A configurable extension: counts taps in its state, sets the action sets it is told to (the last wins),
/// answers `option`, and fails when `failure` says so.
public struct TestExtension: NotificationContentExtension {
    public struct State: Codable, Sendable, Hashable {
        public var taps = 0

        public init(taps: Int = 0) { self.taps = taps }
    }

    public var name: String
    public var categoryIdentifiers: Set<String>
    public var initialState: State { State() }
    public var journal: Journal<Call>
    public var actionSets: @Sendable (State) -> [[NotificationAction]]
    public var option: ResponseOption
    public var failure: @Sendable () -> (any Error)?

    public init(
        name: String = "test-extension", categoryIdentifiers: Set<String> = ["photo-category"],
        journal: Journal<Call> = Journal<Call>(),
        actionSets: @escaping @Sendable (State) -> [[NotificationAction]] = { _ in [] },
        option: ResponseOption = .doNotDismiss, failure: @escaping @Sendable () -> (any Error)? = { nil }
    ) {
        self.name = name
        self.categoryIdentifiers = categoryIdentifiers
        self.journal = journal
        self.actionSets = actionSets
        self.option = option
        self.failure = failure
    }

    public func didReceive(
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
public struct TestDelegate: UserNotificationCenterDelegate {
    public var journal: Journal<Call>
    public var failure: @Sendable () -> (any Error)?

    public init(journal: Journal<Call> = Journal<Call>(), failure: @escaping @Sendable () -> (any Error)? = { nil }) {
        self.journal = journal
        self.failure = failure
    }

    public func didReceive(_ response: NotificationResponse, context: inout DelegateContext) async throws {
        journal.append(
            Call(
                handler: "delegate", eventID: context.eventID, action: response.actionIdentifier.rawValue,
                userText: response.userText, forwarded: context.isForwarded))
        if let error = failure() { throw error }
    }
}

public struct Boom: Error, CustomStringConvertible {
    public var description: String { "boom" }

    public init() {}
}

public enum Fixtures {
    public static let like = NotificationAction(identifier: "like-action", title: "Like")
    public static let share = NotificationAction(identifier: "share-action", title: "Share", options: [.foreground])
    public static let reply = NotificationAction(
        identifier: "reply-action", title: "Reply",
        textInput: NotificationAction.TextInput(buttonTitle: "Send", placeholder: "Say something"))

    /// `photo-category` (extension, customDismissAction), `plain-category` (no extension, no customDismissAction),
    /// `mail-category` (no extension, customDismissAction).
    public static func registry(
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
