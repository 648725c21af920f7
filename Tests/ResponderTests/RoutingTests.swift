import Logging
import NotificationEvents
import PipelineHarness
import Responder
import Testing

/// Each tier receives what iOS would give it.
@Suite struct RoutingTests {
    let handler = TestExtension(actionSets: { _ in [[Fixtures.like]] })
    let delegate = TestDelegate()

    private func process(
        _ event: NotificationResponseEvent, handler: TestExtension? = nil, delegate: TestDelegate? = nil,
        store: InMemoryStateStore = InMemoryStateStore()
    ) async throws -> ResponseOutcome {
        let registry = try Fixtures.registry(extension: handler ?? self.handler, delegate: delegate ?? self.delegate)
        return await ResponsePipeline(registry: registry, store: store, logger: .quiet).process(Events.message(event))
    }

    @Test func customActionOfACategoryWithAnExtensionGoesToTheExtension() async throws {
        let outcome = try await process(Events.response(id: "e1", action: .custom("like-action")))
        #expect(handler.journal.entries.map(\.eventID) == ["e1"])
        #expect(delegate.journal.entries.isEmpty)
        #expect(outcome.disposition == .updated)
        #expect(try outcome.outputs.map { try $0.update.data.actions } == [[Fixtures.like]])
    }

    @Test func textInputReachesTheExtensionWithItsText() async throws {
        _ = try await process(Events.response(id: "e1", action: .custom("reply-action"), userText: "on my way"))
        #expect(handler.journal.entries.map(\.userText) == ["on my way"])
    }

    @Test func customActionOfACategoryWithoutAnExtensionGoesToTheApp() async throws {
        let outcome = try await process(
            Events.response(id: "e1", category: "mail-category", action: .custom("reply-action"), userText: "ok"))
        #expect(handler.journal.entries.isEmpty)
        #expect(
            delegate.journal.entries == [
                Call(handler: "delegate", eventID: "e1", action: "reply-action", userText: "ok", forwarded: false)
            ])
        #expect(outcome.disposition == .noUpdate)
        #expect(outcome.outputs.isEmpty)
    }

    /// What TheModel.md says of a category nobody registered: responses reach the app delegate, as on a device,
    /// and nothing is dead-lettered.
    @Test func responsesOfAnUnregisteredCategoryGoToTheApp() async throws {
        for (id, action) in [("e1", ActionIdentifier.default), ("e2", .custom("like-action"))] {
            let outcome = try await process(Events.response(id: id, category: "unknown-category", action: action))
            #expect(outcome.disposition == .noUpdate)
        }
        #expect(handler.journal.entries.isEmpty)
        #expect(delegate.journal.entries.map(\.eventID) == ["e1", "e2"])
    }

    @Test func defaultActionGoesToTheAppEvenWhenTheCategoryHasAnExtension() async throws {
        let outcome = try await process(Events.response(id: "e1", action: .default))
        #expect(handler.journal.entries.isEmpty)
        #expect(delegate.journal.entries.map(\.action) == [ActionIdentifier.defaultActionIdentifier])
        #expect(outcome.disposition == .noUpdate)
    }

    @Test func dismissGoesToTheAppWhenTheCategoryHasCustomDismissAction() async throws {
        let outcome = try await process(Events.response(id: "e1", action: .dismiss))
        #expect(handler.journal.entries.isEmpty)
        #expect(delegate.journal.entries.map(\.action) == [ActionIdentifier.dismissActionIdentifier])
        #expect(outcome.disposition == .noUpdate)
    }

    @Test func dismissWithoutCustomDismissActionIsIgnoredAndLeavesNoTrace() async throws {
        let store = InMemoryStateStore()
        let event = Events.response(id: "e1", request: "plain-1", category: "plain-category", action: .dismiss)
        let outcome = try await process(event, store: store)
        #expect(outcome.disposition == .ignored)
        #expect(outcome.outputs.isEmpty)
        #expect(handler.journal.entries.isEmpty && delegate.journal.entries.isEmpty)
        #expect(try await store.load(requestIdentifier: "plain-1", source: "/tests", eventID: "e1") == .unprocessed(nil))
    }

    @Test func dismissOfAnUnregisteredCategoryIsIgnored() async throws {
        let outcome = try await process(Events.response(id: "e1", category: "unknown-category", action: .dismiss))
        #expect(outcome.disposition == .ignored)
        #expect(delegate.journal.entries.isEmpty)
    }

    @Test func responsesForTheAppAreIgnoredWhenNoDelegateIsRegistered() async throws {
        let registry = try Fixtures.registry(extension: handler, delegate: nil)
        let pipeline = ResponsePipeline(registry: registry, store: InMemoryStateStore(), logger: .quiet)
        let outcome = await pipeline.process(Events.message(Events.response(id: "e1", action: .default)))
        #expect(outcome.disposition == .ignored)
    }

    @Test func dismissAndForwardActionHandsTheResponseToTheAppAfterTheExtension() async throws {
        let forwarding = TestExtension(
            journal: handler.journal, actionSets: { _ in [[Fixtures.share]] }, option: .dismissAndForwardAction)
        let outcome = try await process(
            Events.response(id: "e1", action: .custom("share-action")), handler: forwarding)
        #expect(handler.journal.entries.map(\.eventID) == ["e1"])
        #expect(
            delegate.journal.entries == [
                Call(handler: "delegate", eventID: "e1", action: "share-action", userText: nil, forwarded: true)
            ])
        let update = try #require(outcome.outputs.first).update
        #expect(update.data.responseOption == .dismissAndForwardAction)
        #expect(update.data.actions == [Fixtures.share])
    }

    @Test(arguments: [ResponseOption.doNotDismiss, .dismiss])
    func otherResponseOptionsDoNotForward(option: ResponseOption) async throws {
        let answering = TestExtension(journal: handler.journal, actionSets: { _ in [[Fixtures.like]] }, option: option)
        let outcome = try await process(Events.response(id: "e1"), handler: answering)
        #expect(delegate.journal.entries.isEmpty)
        #expect(try outcome.outputs.first?.update.data.responseOption == option)
    }

    @Test func anExtensionThatSetsNoActionsProducesNoUpdate() async throws {
        let quiet = TestExtension(journal: handler.journal)
        let outcome = try await process(Events.response(id: "e1"), handler: quiet)
        #expect(handler.journal.entries.count == 1)
        #expect(outcome.disposition == .noUpdate)
        #expect(outcome.outputs.isEmpty)
    }

    @Test func theLastSetNotificationActionsWins() async throws {
        let changing = TestExtension(actionSets: { _ in [[Fixtures.like], [], [Fixtures.share, Fixtures.like]] })
        let outcome = try await process(Events.response(id: "e1"), handler: changing)
        #expect(outcome.outputs.count == 1)
        #expect(try outcome.outputs.first?.update.data.actions == [Fixtures.share, Fixtures.like])
    }
}
