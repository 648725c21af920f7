import AMQP
import BrokerHarness
import Foundation
import NotificationEvents
import RedGreenExample
import Responder
import ResponderTesting
import ResponderWorkerTesting
import Testing

/// The testing product's broker variant on the test broker: the same responses as `HandlerHarness` takes, through
/// RabbitMQ and a worker, give the same typed answers.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct BrokerHandlerHarnessTests {
    static let rotate = ActionIdentifier.custom(RedGreen.rotateActionIdentifier)
    static let reset = ActionIdentifier.custom(RedGreen.resetActionIdentifier)
    static let replies = MessageDestination(name: "replies", exchange: "responder-testing.replies", routingKey: "reply")

    /// Replies to every response on ``replies`` and answers `option`; fails with `failure` when given.
    struct ReplyingExtension: NotificationContentExtension {
        struct State: Codable, Sendable, Hashable {}
        struct Refusal: HandlerFailure, CustomStringConvertible {
            var isRetryable: Bool
            var description: String { "refused" }
        }

        var name = "replying-extension"
        var categoryIdentifiers: Set<String> = ["chat"]
        var initialState: State { State() }
        var option = ResponseOption.dismiss
        var failure: Refusal?

        func didReceive(_ response: NotificationResponse, context: inout ExtensionContext<State>) async throws -> ResponseOption {
            if let failure { throw failure }
            context.send(Array("reply to \(response.actionIdentifier.rawValue)".utf8), to: BrokerHandlerHarnessTests.replies, contentType: "text/plain")
            return option
        }
    }

    static func replying(_ handler: ReplyingExtension) -> (inout HandlerRegistry) throws -> Void {
        { registry in
            try registry.declare(replies)
            registry.register(NotificationCategory(identifier: "chat", actions: [NotificationAction(identifier: "like", title: "Like")]))
            try registry.register(handler)
        }
    }

    /// A harness whose waits are only hang guards within the test's time limit: in CI's crowded suite a worker once
    /// took more than 30 seconds to start (scripts/test says why).
    func harness(_ register: (inout HandlerRegistry) throws -> Void) async throws -> BrokerHandlerHarness {
        try await BrokerHandlerHarness(amqpURL: try #require(TestBroker.url), timeout: hangGuard, register: register)
    }

    @Test func theResponsesGiveTheSameTypedUpdatesThroughTheBrokerAsWithout() async throws {
        let broker = try await harness { try RedGreen.register(in: &$0) }
        let memory = try HandlerHarness { try RedGreen.register(in: &$0) }
        let taps = [
            (Self.rotate, "red-1", RedGreen.redCategoryIdentifier), (Self.rotate, "red-1", RedGreen.redCategoryIdentifier),
            (Self.rotate, "green-1", RedGreen.greenCategoryIdentifier), (Self.reset, "red-1", RedGreen.redCategoryIdentifier),
        ]
        var updated = 0
        for (action, request, category) in taps {
            let through = try await broker.respond(to: action, request: request, category: category)
            let without = try await memory.respond(to: action, request: request, category: category)
            #expect(through.disposition == without.disposition)
            #expect(through.updates == without.updates)
            updated += through.updates.count
        }
        #expect(updated >= 2)
        #expect(try await broker.state(of: RotationExtension(), for: "red-1") == memory.state(of: RotationExtension(), for: "red-1"))
        try await broker.stop()
    }

    @Test func theSameEventIDAgainIsARedeliveryAnsweredFromTheInbox() async throws {
        let harness = try await harness { try RedGreen.register(in: &$0) }
        let response = TestResponse.response(Self.rotate, request: "red-1", category: RedGreen.redCategoryIdentifier)
        let first = try await harness.respond(response, eventID: "tap-1")
        let again = try await harness.respond(response, eventID: "tap-1")
        #expect(first.disposition == .updated)
        #expect(again.disposition == .deduplicated)
        #expect(!first.updates.isEmpty && again.updates.map(\.id) == first.updates.map(\.id))
        try await harness.stop()
    }

    @Test func aDismissalAndASentMessageComeBackTypedFromTheirQueues() async throws {
        let harness = try await harness(Self.replying(ReplyingExtension()))
        let handled = try await harness.respond(to: .custom("like"), request: "m-1", category: "chat")
        #expect(handled.dismissals.map(\.data.requestIdentifier) == ["m-1"])
        #expect(handled.sent.map(\.destination.name) == ["replies"])
        #expect(handled.sent.map { String(decoding: $0.body, as: UTF8.self) } == ["reply to like"])
        try await harness.stop()
    }

    @Test(arguments: [(false, DeadLetterReason.handlerFailed), (true, .retriesExhausted)])
    func aFailingHandlerEndsAsTheDeadLetterTheWorkerPublishes(retryable: Bool, reason: DeadLetterReason) async throws {
        let failing = ReplyingExtension(failure: ReplyingExtension.Refusal(isRetryable: retryable))
        let harness = try await harness(Self.replying(failing))
        let handled = try await harness.respond(to: .custom("like"), request: "m-1", category: "chat")
        #expect(handled.deadLetterReason == reason)
        #expect(handled.dismissals.isEmpty && handled.sent.isEmpty)
        try await harness.stop()
    }

    @Test func stoppingDeletesTheHarnesssQueues() async throws {
        let harness = try await harness { try RedGreen.register(in: &$0) }
        try await harness.stop()
        let connection = try await TestBroker.connect()
        defer { Task { await connection.close() } }
        for queue in harness.topology.declarations.queues.map(\.name) {
            let channel = try await connection.openChannel()
            await #expect(throws: AMQPError.self, "\(queue) is still there") {
                try await channel.declareQueue(queue, passive: true)
            }
        }
    }
}
