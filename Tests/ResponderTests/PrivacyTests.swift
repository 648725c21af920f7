import Foundation
import Logging
import NotificationEvents
import PipelineHarness
import Responder
import Testing

/// Typed reply text is private to the user: whatever happens to a response, no log line shows it.
@Suite struct PrivacyTests {
    static let secret = "meet me at the old mill at 9"

    /// Logs the response the way a careless handler would: through its description.
    struct Chatty: UserNotificationCenterDelegate {
        var fails = false

        func didReceive(_ response: NotificationResponse, context: inout DelegateContext) async throws {
            context.logger.info("got \(response)", metadata: ["response": "\(response)"])
            if fails { throw PermanentFailure("the reply to \(context.requestIdentifier) could not be sent") }
        }
    }

    @Test func noLogLineContainsTheTypedText() async throws {
        let (logger, records) = CapturingLogHandler.logger()
        let handler = TestExtension(actionSets: { _ in [[Fixtures.like]] }, option: .dismissAndForwardAction)
        let failing = TestExtension(name: "failing", categoryIdentifiers: ["failing-category"], failure: { Boom() })
        var registry = try Fixtures.registry(extension: handler, delegate: nil)
        registry.register(NotificationCategory(identifier: "failing-category", actions: [Fixtures.reply]))
        try registry.register(failing)
        registry.setDelegate(Chatty())
        let pipeline = ResponsePipeline(registry: registry, store: InMemoryStateStore(), logger: logger)
        var failingDelegate = registry
        failingDelegate.setDelegate(Chatty(fails: true))
        let failingPipeline = ResponsePipeline(registry: failingDelegate, store: InMemoryStateStore(), logger: logger)

        let reply = ActionIdentifier.custom("reply-action")
        let events = [
            Events.response(id: "extension", action: reply, userText: Self.secret),
            Events.response(id: "app", category: "mail-category", action: reply, userText: Self.secret),
            Events.response(id: "failing", category: "failing-category", action: reply, userText: Self.secret),
            Events.response(id: "ignored", category: "plain-category", action: .dismiss, userText: Self.secret),
        ]
        for event in events {
            _ = await pipeline.process(Events.message(event))
            _ = await pipeline.process(Events.message(event))
        }
        _ = await failingPipeline.process(
            Events.message(Events.response(id: "f", category: "mail-category", action: reply, userText: Self.secret)))
        let rejected = [
            Events.body(events[0]) { $0["type"] = "notification.other.v1" },
            Events.body(events[0]) { $0["specversion"] = "2.0" },
            Events.body(events[0]) { body in
                var data = body["data"] as! [String: Any]
                var notification = data["notification"] as! [String: Any]
                notification["date"] = "yesterday"
                data["notification"] = notification
                body["data"] = data
            },
        ]
        for body in rejected {
            #expect(await pipeline.process(Events.message(body: body)).deadLetterReason != nil)
        }

        let lines = records.all
        #expect(lines.count >= 10)
        #expect(lines.contains { $0.contains("<redacted>") }, "the handlers' log lines were captured")
        #expect(lines.allSatisfy { !$0.contains(Self.secret) })
        #expect(lines.allSatisfy { !$0.contains("old mill") })
    }
}
