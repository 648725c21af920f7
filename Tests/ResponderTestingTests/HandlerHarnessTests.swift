import BrokerHarness
import Foundation
import NotificationEvents
import RedGreenExample
import Responder
import ResponderTesting
import Testing
import WorkerHarness

/// The testing product against the built-in sample: what a team's tests of its own handlers rely on.
@Suite struct HandlerHarnessTests {
    static let rotate = ActionIdentifier.custom(RedGreen.rotateActionIdentifier)
    static let reset = ActionIdentifier.custom(RedGreen.resetActionIdentifier)

    func harness() throws -> HandlerHarness {
        try HandlerHarness { try RedGreen.register(in: &$0) }
    }

    @Test func aResponseBuiltInSwiftGivesTheTypedUpdateTheWorkerWouldPublish() async throws {
        let harness = try harness()
        let first = try await harness.respond(to: Self.rotate, request: "red-1", category: RedGreen.redCategoryIdentifier)
        #expect(first.disposition == .updated)
        #expect(first.newActions == [RedGreen.rotateAction, RedGreen.resetAction])
        #expect(first.updates.map(\.data.version) == [1])
        #expect(first.updates.map(\.data.requestIdentifier) == ["red-1"])

        let second = try await harness.respond(to: Self.rotate, request: "red-1", category: RedGreen.redCategoryIdentifier)
        #expect(second.disposition == .noUpdate)
        #expect(second.updates.isEmpty)
        #expect(try await harness.state(of: RotationExtension(), for: "red-1") == RotationExtension.State(taps: 2))
        #expect(await harness.actions(of: "red-1") == [RedGreen.rotateAction, RedGreen.resetAction])
        #expect(await harness.version(of: "red-1") == 2)
        #expect(try await harness.state(of: RotationExtension(), for: "green-1") == nil)
    }

    @Test func theSameEventIDAgainIsARedeliveryAnsweredFromTheInbox() async throws {
        let harness = try harness()
        let response = TestResponse.response(Self.rotate, request: "red-1", category: RedGreen.redCategoryIdentifier)
        let first = try await harness.respond(response, eventID: "tap-1")
        let again = try await harness.respond(response, eventID: "tap-1")
        #expect(again.disposition == .deduplicated)
        #expect(again.updates.map(\.id) == first.updates.map(\.id))
        #expect(try await harness.state(of: RotationExtension(), for: "red-1") == RotationExtension.State(taps: 1))
    }

    @Test func anExtensionForAnUnregisteredCategoryIsRefusedAsTheWorkerRefusesIt() {
        #expect(throws: RegistrationError.self) {
            try HandlerHarness { try $0.register(RotationExtension()) }
        }
    }

    @Test func aFixtureReplaysToItsGoldenAndADifferenceIsShownLineByLine() async throws {
        let replayed = try await harness().replay(fixture: Paths.session("demo"))
        #expect(try replayed.difference(fromGolden: Paths.golden("demo")) == nil)
        #expect(replayed.updates.count == replayed.lines.count)
        #expect(replayed.summary.updated == replayed.updates.count)

        // Against another session's golden the diff names both files' lines.
        let diff = try #require(try replayed.difference(fromGolden: Paths.golden("interleaved")))
        #expect(diff.contains("--- ") && diff.contains("+++ outputs"))
    }

    /// Every kind of output a replayed fixture holds comes back typed: the lifecycle session's updates and removals,
    /// as many of each as its golden file has lines of that type.
    @Test func aReplayedFixtureTypesEveryKindOfOutput() async throws {
        let replayed = try await harness().replay(fixture: Paths.session("lifecycle"))
        #expect(try replayed.difference(fromGolden: Paths.golden("lifecycle")) == nil)
        let types = try replayed.lines.map { try EventCodec.decodeFixtureLine(Array($0.utf8)).properties.type }
        #expect(replayed.updates.count == types.filter { $0 == EventType.actionSetUpdated }.count)
        #expect(replayed.dismissals.count == types.filter { $0 == EventType.notificationDismissed }.count)
        #expect(replayed.removals.count == types.filter { $0 == EventType.notificationRemoved }.count)
        #expect(!replayed.removals.isEmpty)
        #expect(replayed.updates.count + replayed.removals.count == replayed.lines.count)
    }

    /// `didReceive` called directly, with the public context a unit test builds.
    @Test func anExtensionCanBeCalledDirectlyWithAContextOfItsOwn() async throws {
        let response = TestResponse.response(Self.reset, request: "red-1", category: RedGreen.redCategoryIdentifier)
        var context = ExtensionContext(
            response: response, state: RotationExtension.State(taps: 4),
            notificationActions: [RedGreen.rotateAction, RedGreen.resetAction])
        let option = try await RotationExtension().didReceive(response, context: &context)
        #expect(option == .doNotDismiss)
        #expect(context.state == RotationExtension.State(taps: 0))
        #expect(context.didSetNotificationActions)
        #expect(context.notificationActions == [RedGreen.rotateAction])
        #expect(context.requestIdentifier == "red-1")

        let open = TestResponse.response(.default, request: "red-1", category: RedGreen.redCategoryIdentifier)
        var delegateContext = DelegateContext(response: open, eventID: "open-1")
        try await RedGreenAppDelegate().didReceive(open, context: &delegateContext)
    }
}
