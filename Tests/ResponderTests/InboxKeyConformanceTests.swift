import Foundation
import NotificationEvents
import PipelineHarness
import Responder
import StoreHarness
import Testing

/// The inbox is keyed by event source and id, as CloudEvents makes an id unique per source only: checked on every
/// store alike, as StateStoreConformanceTests does.
@Suite struct InboxKeyConformanceTests {
    private func commit(_ source: String, _ id: String, _ request: String, outputs: [OutboundMessage]) -> StateCommit {
        StateCommit(
            inboxEntry: InboxEntry(
                source: source, eventID: id, requestIdentifier: request, outputs: outputs, processedAt: .now),
            notification: NotificationRecord(
                requestIdentifier: request, categoryIdentifier: "photo-category", actions: [Fixtures.like]))
    }

    private func output(_ text: String) -> [OutboundMessage] {
        [OutboundMessage(exchange: "x", routingKey: text, body: Array(text.utf8), properties: MessageProperties())]
    }

    @Test(arguments: StoreKind.allCases)
    func oneIDFromTwoSourcesForTwoNotificationsIsTwoEventsEachWithItsOwnOutputs(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try await kind.make(in: directory)
        #expect(try await store.commit(commit("/app-a", "e-1", "note-a", outputs: output("a"))) == .committed)
        #expect(
            try await store.load(requestIdentifier: "note-b", source: "/app-b", eventID: "e-1") == .unprocessed(nil))
        #expect(try await store.commit(commit("/app-b", "e-1", "note-b", outputs: output("b"))) == .committed)
        #expect(try await store.notification("note-b")?.version == 1)
        #expect(
            try await store.load(requestIdentifier: "note-a", source: "/app-a", eventID: "e-1")
                == .processed(output("a")))
        #expect(
            try await store.load(requestIdentifier: "note-b", source: "/app-b", eventID: "e-1")
                == .processed(output("b")))
        // Each redelivery is answered with its own outputs.
        #expect(
            try await store.commit(commit("/app-b", "e-1", "note-b", outputs: output("b2")))
                == .alreadyProcessed(output("b")))
    }

    @Test(arguments: StoreKind.allCases)
    func oneIDFromOneSourceForAnotherNotificationIsReusedNotADuplicate(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try await kind.make(in: directory)
        #expect(try await store.commit(commit("/app", "e-1", "note-a", outputs: output("a"))) == .committed)
        #expect(
            try await store.load(requestIdentifier: "note-b", source: "/app", eventID: "e-1")
                == .idReused(requestIdentifier: "note-a"))
        // A commit racing the first (it loaded before the first committed) meets the same answer, and writes nothing.
        #expect(
            try await store.commit(commit("/app", "e-1", "note-b", outputs: output("b")))
                == .idReused(requestIdentifier: "note-a"))
        #expect(try await store.notification("note-b") == nil)
        #expect(
            try await store.load(requestIdentifier: "note-a", source: "/app", eventID: "e-1")
                == .processed(output("a")))
    }
}
