import Foundation
import Logging
import NotificationEvents
import Responder

/// A team's handlers run as a worker runs them, without a broker: for tests in Swift Testing (or XCTest).
///
/// Registers the handlers as the worker's registration does, keeps state in an `InMemoryStateStore`, and feeds
/// each response through the same `ResponsePipeline` (strict decoding, routing to the extension and app-delegate
/// tiers, the inbox, the commit), so a test sees what the worker would publish:
///
/// ```swift
/// let harness = try HandlerHarness { try Chat.register(in: &$0) }
/// let liked = try await harness.respond(
///     to: .custom(Chat.likeActionIdentifier), request: "message-1", category: Chat.messageCategoryIdentifier)
/// #expect(liked.newActions?.map(\.identifier) == [Chat.replyActionIdentifier, Chat.unlikeActionIdentifier])
/// ```
///
/// What it does not check: the broker's publish limits (an id or category too long for AMQP), which the worker and
/// `responder replay` check; run the fixture through `replay` for those.
public final class HandlerHarness: Sendable {
    /// The handlers and categories as registered.
    public let registry: HandlerRegistry
    /// Where the notifications' state and the inbox live during the test.
    public let store: InMemoryStateStore
    private let pipeline: ResponsePipeline
    private let eventIDs = TestEventIDs()

    /// Registers handlers with `register` (the registration a worker's `main` hands to `ResponderCommands`) and
    /// checks that every extension's categories are registered, as the worker does at start.
    ///
    /// - Parameters:
    ///   - configuration: the pipeline's settings (the default ones unless a test needs others).
    ///   - logger: where the pipeline and the handlers log; nothing is written by default.
    ///   - register: the registration: categories, extensions and the app delegate.
    public init(
        configuration: PipelineConfiguration = PipelineConfiguration(),
        logger: Logger = Logger(label: "responder.testing", factory: { _ in SwiftLogNoOpLogHandler() }),
        register: (inout HandlerRegistry) throws -> Void
    ) throws {
        var registry = HandlerRegistry()
        try register(&registry)
        try registry.checkExtensionCategories()
        self.registry = registry
        store = InMemoryStateStore()
        pipeline = ResponsePipeline(registry: registry, store: store, configuration: configuration, logger: logger)
    }

    /// Handles `response` as the event `eventID` (by default a new id for each call, so each call is a new event;
    /// pass an id again to send a redelivery) from `source`.
    public func respond(
        _ response: NotificationResponse, eventID: String? = nil, source: String = TestResponse.source
    ) async throws -> HandledResponse {
        let id = eventID ?? eventIDs.next(for: response.notification.request.identifier)
        let event = TestResponse.event(response, id: id, source: source)
        let message = InboundMessage(
            body: EventCodec.encode(event),
            properties: MessageProperties(contentType: "application/cloudevents+json", messageID: id))
        return try HandledResponse(await pipeline.process(message), destinations: registry.destinations.values)
    }

    /// Handles the user's `action` on the notification `request` of `category` (typing `userText` for a text-input
    /// action), as a new event.
    public func respond(
        to action: ActionIdentifier, request: String, category: String, userText: String? = nil
    ) async throws -> HandledResponse {
        try await respond(TestResponse.response(action, request: request, category: category, userText: userText))
    }

    /// The notification's current buttons, or nil when no response changed it yet.
    public func actions(of requestIdentifier: String) async -> [NotificationAction]? {
        await store.notification(requestIdentifier)?.actions
    }

    /// The notification's version: how many responses changed it (0 when none did).
    public func version(of requestIdentifier: String) async -> Int64 {
        await store.notification(requestIdentifier)?.version ?? 0
    }

    /// The state `handler` keeps for the notification, or nil when it has none stored yet.
    public func state<Extension: NotificationContentExtension>(
        of handler: Extension, for requestIdentifier: String
    ) async throws -> Extension.State? {
        try await store.state(of: handler, for: requestIdentifier)
    }

    /// Replays a recorded fixture (`responder record`'s JSON Lines) through the handlers, on this harness's state,
    /// and returns what it published.
    public func replay(fixture: URL) async throws -> ReplayedFixture {
        var lines: [String] = []
        let summary = try await Replay(pipeline: pipeline).run(fixture: fixture) { bytes in
            lines.append(String(decoding: bytes, as: UTF8.self))
        }
        return try ReplayedFixture(lines: lines, summary: summary)
    }
}
