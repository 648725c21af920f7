import Foundation
import Logging
import NotificationEvents
import PipelineHarness
import Responder
import Testing

/// A producer chooses the event id, the request identifier, the category and the action: each is logged bounded
/// as a dead letter's detail is, whatever happens to the response, and the typed text never.
@Suite struct LogBoundsTests {
    /// 100 KiB, far past any bound.
    static let hostile = String(repeating: "h", count: 100 * 1024)
    static let secret = "meet me at the old mill at 9"

    /// Logs through the logger it is given and fails with a retryable error that quotes the request identifier,
    /// as a careless handler would.
    struct QuotingDelegate: UserNotificationCenterDelegate {
        struct NoReply: Error, CustomStringConvertible {
            let description: String
        }

        func didReceive(_ response: NotificationResponse, context: inout DelegateContext) async throws {
            context.logger.info("replying")
            throw NoReply(description: "no reply for \(context.requestIdentifier)")
        }
    }

    static func events() -> [NotificationResponseEvent] {
        [
            // Handled by the extension.
            Events.response(id: hostile, userText: secret),
            Events.response(id: "request", request: hostile, userText: secret),
            Events.response(id: "action", action: .custom(hostile), userText: secret),
            // An unknown category goes to the delegate, which logs and fails. Each names a notification of its own:
            // the same delivery under another category would be refused as category-changed before any handler.
            Events.response(id: "category", request: "category-request", category: hostile, userText: secret),
            Events.response(
                id: hostile + "-all", request: hostile + "-all", category: hostile, action: .custom(hostile),
                userText: secret),
            // The first event's delivery under another category: dead-lettered as category-changed, with a detail
            // that quotes the category.
            Events.response(id: "conflict", category: hostile, userText: secret),
            // Not routed: a dismiss of a category without customDismissAction (a dismiss carries no text).
            Events.response(
                id: hostile + "-dismiss", request: hostile + "-dismiss", category: "plain-category", action: .dismiss),
        ]
    }

    static func pipeline(logger: Logger) throws -> ResponsePipeline {
        var registry = try Fixtures.registry(delegate: nil)
        registry.setDelegate(QuotingDelegate())
        var configuration = PipelineConfiguration()
        configuration.maxBodySize = 1024 * 1024
        return ResponsePipeline(registry: registry, store: InMemoryStateStore(), configuration: configuration, logger: logger)
    }

    @Test func fieldsTakenFromTheInputAreBoundedLikeErrorDetails() async throws {
        let (logger, records) = CapturingLogHandler.logger()
        let pipeline = try Self.pipeline(logger: logger)
        for event in Self.events() {
            _ = await pipeline.process(Events.message(event))
        }
        var hostileMessage = Events.message(Self.events()[0])
        hostileMessage.properties.messageID = Self.hostile
        hostileMessage.properties.contentType = "text/plain"
        #expect(await pipeline.process(hostileMessage).deadLetterReason == .unsupportedContentType)

        let entries = records.entries
        #expect(entries.count >= Self.events().count + 1, "every response is logged")
        for record in entries {
            #expect(record.message.utf8.count <= DeadLetterInfo.maximumDetailBytes, "\(record.message.prefix(80))")
            for (key, value) in record.metadata {
                #expect("\(value)".utf8.count <= DeadLetterInfo.maximumDetailBytes, "\(record.message): \(key)")
            }
            #expect(!record.line.contains(Self.secret))
        }
        // The fields are there, cut with the marker.
        for key in ["event-id", "request-identifier", "category", "action", "error", "detail", "message-id"] {
            #expect(
                entries.contains { "\($0.metadata[key] ?? "")".hasSuffix(DeadLetterInfo.cutMarker) },
                "\(key) is logged, cut")
        }
    }

    /// Metrics count responses nothing handles; a line each at info would let any producer write to the log at
    /// its own rate.
    @Test func anUnroutedResponseIsLoggedAtDebug() async throws {
        let (logger, records) = CapturingLogHandler.logger()
        let pipeline = try Self.pipeline(logger: logger)
        let outcome = await pipeline.process(
            Events.message(Events.response(id: "dismissed", category: "plain-category", action: .dismiss)))
        guard case .completed(_, .ignored) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        let unrouted = records.entries.filter { $0.message == "response not routed" }
        #expect(unrouted.count == 1)
        #expect(unrouted.allSatisfy { $0.level == .debug })
    }
}
