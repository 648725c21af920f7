import Logging
import NotificationEvents
import RedGreenExample
import Responder
import Testing
import WorkerHarness

@Suite struct RedGreenRegistryTests {
    @Test func theCategoriesAreTheSamples() {
        let rotate = NotificationAction(identifier: "rotate-twenty-degrees-action", title: "Rotate 20°")
        #expect(
            RedGreen.categories == [
                NotificationCategory(identifier: "red-category", actions: [rotate], options: [.customDismissAction]),
                NotificationCategory(identifier: "green-category", actions: [rotate], options: [.customDismissAction]),
            ])
        let registry = RedGreen.makeRegistry()
        #expect(registry.categories.all.map(\.identifier) == ["green-category", "red-category"])
    }

    @Test func registeringTheSampleTwiceInOneRegistryFails() throws {
        var registry = HandlerRegistry()
        try RedGreen.register(in: &registry)
        #expect(throws: RegistrationError.self) { try RedGreen.register(in: &registry) }
    }

    @Test func theAppDelegateLogsEachActionWithTheEventAndRequest() async throws {
        let records = CapturingLogHandler.Records()
        let logger = Logger(label: "test") { _ in CapturingLogHandler(records: records) }
        var registry = RedGreen.makeRegistry()
        registry.register(NotificationCategory(identifier: "plain-category", actions: []))
        let pipeline = ResponsePipeline(registry: registry, store: InMemoryStateStore(), logger: logger)
        let responses = [
            ("e1", ActionIdentifier.defaultActionIdentifier, "red-1", "red-category"),
            ("e2", ActionIdentifier.dismissActionIdentifier, "green-1", "green-category"),
            ("e3", "open-action", "plain-1", "plain-category"),
            ("e4", ActionIdentifier.dismissActionIdentifier, "plain-1", "plain-category"),
        ]
        for (id, action, request, category) in responses {
            _ = await pipeline.process(RedGreenTaps.message(id, action, request: request, category: category))
        }
        let actions = records.entries.filter { $0.message.hasPrefix("ACTION: ") }
        #expect(actions.map(\.message) == ["ACTION: Default", "ACTION: Dismiss", "ACTION: open-action"])
        #expect(actions.map { $0.metadata["event-id"]?.description } == ["e1", "e2", "e3"])
        #expect(actions.map { $0.metadata["request-identifier"]?.description } == ["red-1", "green-1", "plain-1"])
    }
}
