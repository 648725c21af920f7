import ChatHandlers
import Foundation
import NotificationEvents
import ResponderTesting
import ResponderWorkerTesting
import Testing

/// The chat handlers in a worker on a real broker: the same calls as ChatHandlersTests, the response through
/// RabbitMQ and back. One test, as most of a team's tests need no broker; scripts/example runs it on its broker.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["AMQP_URL"] != nil, "needs a test broker: AMQP_URL"))
struct ChatThroughTheBrokerTests {
    static let like = ActionIdentifier.custom(Chat.likeActionIdentifier)

    @Test func likeTurnsIntoUnlikeThroughTheBroker() async throws {
        let url = try #require(ProcessInfo.processInfo.environment["AMQP_URL"])
        let harness = try await BrokerHandlerHarness(amqpURL: url) { try Chat.register(in: &$0) }
        let liked = try await harness.respond(
            to: Self.like, request: "message-1", category: Chat.messageCategoryIdentifier)
        #expect(liked.newActions == [Chat.replyAction, Chat.unlikeAction])
        #expect(try await harness.state(of: MessageExtension(), for: "message-1")?.liked == true)
        try await harness.stop()
    }
}
