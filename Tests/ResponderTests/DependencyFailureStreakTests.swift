import Foundation
import NotificationEvents
import PipelineHarness
import Responder
import Testing

/// A handler's ``DependencyUnavailable`` fails its event retryably, until the same handler has failed so for
/// ``PipelineConfiguration/dependencyFailures`` different events in a row: then the dependency is down, and the
/// pipeline says so (``ResponseOutcome/dependencyUnavailable(_:)``) for every further such failure until a call of
/// the handler works.
@Suite struct DependencyFailureStreakTests {
    /// An extension whose dependency is down while `down` is raised.
    struct Dependent: NotificationContentExtension {
        let name = "dependent"
        let categoryIdentifiers: Set<String> = ["photo-category"]
        let initialState = 0
        let down: Flag

        func didReceive(_ response: NotificationResponse, context: inout ExtensionContext<Int>) async throws -> ResponseOption {
            if down.isRaised { throw DependencyUnavailable("the photo service", underlying: Boom()) }
            context.state += 1
            return .doNotDismiss
        }
    }

    private func pipeline(_ down: Flag, threshold: Int = 3) throws -> ResponsePipeline {
        var registry = try Fixtures.registry(extension: nil)
        try registry.register(Dependent(down: down))
        var configuration = PipelineConfiguration()
        configuration.dependencyFailures = threshold
        return ResponsePipeline(registry: registry, store: InMemoryStateStore(), configuration: configuration, logger: .quiet)
    }

    private func outcome(_ pipeline: ResponsePipeline, _ id: String) async -> ResponseOutcome {
        await pipeline.process(Events.message(Events.response(id: id, request: "note-\(id)")))
    }

    @Test func differentEventsFailingInARowMakeTheDependencyUnavailableUntilACallWorks() async throws {
        let down = Flag()
        down.raise()
        let pipeline = try pipeline(down)
        #expect(await outcome(pipeline, "e1").isRetryableFailure == true)
        #expect(await outcome(pipeline, "e2").isRetryableFailure == true)
        guard case .dependencyUnavailable(let unavailable) = await outcome(pipeline, "e3") else {
            Issue.record("the third event in a row should find the dependency unavailable")
            return
        }
        #expect(unavailable.dependency == "the photo service")
        #expect("\(unavailable)" == "dependency-unavailable: the photo service: boom")
        #expect(await outcome(pipeline, "e4").unavailability != nil, "the streak holds until a call works")

        down.lower()
        #expect(await outcome(pipeline, "e5").disposition == .noUpdate)
        down.raise()
        #expect(await outcome(pipeline, "e6").isRetryableFailure == true, "a call that worked ended the streak")
    }

    @Test func onlyTheFailingHandlersOwnCallEndsTheOutage() async throws {
        let down = Flag()
        down.raise()
        let pipeline = try pipeline(down)
        #expect(!pipeline.isDependencyUnavailable)
        for id in ["e1", "e2", "e3"] { _ = await outcome(pipeline, id) }
        #expect(pipeline.isDependencyUnavailable)

        // The app delegate's input, and a lifecycle event, are handled: they say nothing of the photo service.
        let delegated = await pipeline.process(
            Events.message(Events.response(id: "p1", request: "plain-1", category: "plain-category")))
        #expect(delegated.disposition != nil)
        let removal = await pipeline.process(Events.message(Events.lifecycle(id: "l1", request: "note-e1", change: .removedDelivered)))
        #expect(removal.disposition != nil)
        #expect(pipeline.isDependencyUnavailable, "other traffic leaves the outage on")

        down.lower()
        #expect(await outcome(pipeline, "e4").disposition == .noUpdate)
        #expect(!pipeline.isDependencyUnavailable, "the failing handler's call that worked ended it")
    }

    @Test func oneEventFailingAgainAndAgainIsThatEventsFailure() async throws {
        let down = Flag()
        down.raise()
        let pipeline = try pipeline(down)
        for _ in 1...5 { #expect(await outcome(pipeline, "e1").isRetryableFailure == true) }
    }
}
