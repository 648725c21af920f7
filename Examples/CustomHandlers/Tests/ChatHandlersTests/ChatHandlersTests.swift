import ChatHandlers
import Foundation
import NotificationEvents
import Responder
import ResponderTesting
import Testing

/// The chat handlers, tested as a team tests its own: responses built in Swift through the worker's pipeline, the
/// extension called directly, and the recorded fixture against its golden file. No broker.
@Suite struct ChatHandlersTests {
    static let like = ActionIdentifier.custom(Chat.likeActionIdentifier)
    static let unlike = ActionIdentifier.custom(Chat.unlikeActionIdentifier)
    static let reply = ActionIdentifier.custom(Chat.replyActionIdentifier)

    @Test func likeTurnsIntoUnlikeAndBack() async throws {
        let harness = try HandlerHarness { try Chat.register(in: &$0) }
        let liked = try await harness.respond(
            to: Self.like, request: "message-1", category: Chat.messageCategoryIdentifier)
        #expect(liked.newActions == [Chat.replyAction, Chat.unlikeAction])
        #expect(try await harness.state(of: MessageExtension(), for: "message-1")?.liked == true)

        let unliked = try await harness.respond(
            to: Self.unlike, request: "message-1", category: Chat.messageCategoryIdentifier)
        #expect(unliked.newActions == [Chat.replyAction, Chat.likeAction])
        #expect(unliked.updates.map(\.data.version) == [2])
    }

    @Test func aReplyIsCountedAndForwardedWithTheNotificationDismissed() async throws {
        let harness = try HandlerHarness { try Chat.register(in: &$0) }
        let replied = try await harness.respond(
            to: Self.reply, request: "message-1", category: Chat.messageCategoryIdentifier, userText: "On my way")
        #expect(replied.updates.map(\.data.responseOption) == [.dismissAndForwardAction])
        // The device is told to dismiss the notification, at the version of the update that goes before it.
        #expect(replied.dismissals.map(\.data.version) == [1])
        #expect(replied.updates.map(\.data.version) == [1])
        #expect(try await harness.state(of: MessageExtension(), for: "message-1")?.replies == 1)
    }

    @Test func aReplyIsSentOnceThroughTheOutboxAndARedeliveryRepublishesTheSameMessage() async throws {
        let harness = try HandlerHarness { try Chat.register(in: &$0) }
        let response = TestResponse.response(
            Self.reply, request: "message-1", category: Chat.messageCategoryIdentifier, userText: "On my way")
        let replied = try await harness.respond(response, eventID: "reply-1")
        let reply = ChatReply(inReplyTo: "message-1", eventID: "reply-1", text: "On my way")
        #expect(replied.sent == [SentMessage(EventCodec.encode(reply), to: Chat.replies, type: ChatReply.type)])
        #expect(try EventCodec.decodeStored(ChatReply.self, from: replied.sent[0].body) == reply)

        let again = try await harness.respond(response, eventID: "reply-1")
        #expect(again.disposition == .deduplicated)
        #expect(again.sent == replied.sent)
        #expect(try await harness.state(of: MessageExtension(), for: "message-1")?.replies == 1)
    }

    @Test func theExtensionAloneWithAContextOfItsOwn() async throws {
        let response = TestResponse.response(
            Self.like, request: "message-1", category: Chat.messageCategoryIdentifier)
        var context = ExtensionContext(
            response: response, state: MessageExtension().initialState,
            notificationActions: Chat.messageCategory.actions)
        let option = try await MessageExtension().didReceive(response, context: &context)
        #expect(option == .doNotDismiss)
        #expect(context.state.liked)
        #expect(context.notificationActions == [Chat.replyAction, Chat.unlikeAction])
    }

    @Test func theRecordedSessionGivesItsGoldenOutputs() async throws {
        let fixtures = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures")
        let harness = try HandlerHarness { try Chat.register(in: &$0) }
        let replayed = try await harness.replay(fixture: fixtures.appendingPathComponent("chat.jsonl"))
        #expect(try replayed.difference(fromGolden: fixtures.appendingPathComponent("chat.golden.jsonl")) == nil)
    }
}
