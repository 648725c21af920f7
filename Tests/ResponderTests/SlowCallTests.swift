import BrokerHarness
import Foundation
import Logging
import NotificationEvents
import PipelineHarness
import Responder
import Testing

/// A call that outlasts its batch holds only its notification and one slot of `maxConcurrentNotifications`: with
/// every slot held by such calls no batch starts, and the scheduler says so at warning, naming the categories; as a
/// call ends its slot goes to what waited. The calls wait on gates only the test opens.
@Suite struct SlowCallTests {
    /// Waits on its notification's gate, when it has one, and records every call as it starts.
    struct Gated: NotificationContentExtension {
        let name = "gated"
        let categoryIdentifiers: Set<String> = ["photo-category"]
        let initialState = 0
        let gates: [String: Signal]
        let started = Journal<String>()

        func didReceive(_ response: NotificationResponse, context: inout ExtensionContext<Int>) async throws -> ResponseOption {
            started.append(context.requestIdentifier)
            if let gate = gates[context.requestIdentifier] { await gate.wait() }
            context.state += 1
            return .doNotDismiss
        }
    }

    @Test(.timeLimit(.minutes(10)))
    func slowCallsHoldingEverySlotStopNewBatchesUntilOneEnds() async throws {
        let gated = Gated(gates: ["a": Signal(), "b": Signal()])
        var registry = try Fixtures.registry(extension: nil)
        try registry.register(gated)
        let (logger, records) = CapturingLogHandler.logger()
        let scheduler = ResponseScheduler<String>(
            pipeline: ResponsePipeline(registry: registry, store: InMemoryStateStore(), logger: logger),
            maxConcurrentNotifications: 2)
        let completed = Journal<String>()
        let submit = { (request: String) in
            scheduler.submit([(Events.message(Events.response(id: "\(request)-1", request: request)), request, nil)])
        }

        await withTaskGroup(of: Void.self) { group in
            group.addTask { await scheduler.run() }
            group.addTask { for await completion in scheduler.completions { completed.append(completion.tag) } }
            do {
                // One after the other: each in a batch of its own, which leaves its call behind and goes on.
                for request in ["a", "b"] {
                    submit(request)
                    try await waitFor("\(request)'s call") { gated.started.entries.contains(request) }
                }
                submit("c")
                try await waitFor("the warning that slow calls hold every slot") {
                    records.entries.contains { $0.level == .warning && $0.message.contains("hold every slot") }
                }
                let warning = try #require(records.entries.first { $0.message.contains("hold every slot") })
                #expect(warning.metadata["categories"] == "photo-category")
                #expect(warning.metadata["slow-calls"] == "2")
                #expect(!gated.started.entries.contains("c"), "no batch starts while slow calls hold every slot")
                #expect(completed.entries.isEmpty)

                await gated.gates["a"]!.fire()
                try await waitFor("a, then c in a's slot") { completed.entries == ["a", "c"] }
                #expect(gated.started.entries == ["a", "b", "c"])
                await gated.gates["b"]!.fire()
                try await waitFor("b") { completed.entries == ["a", "c", "b"] }
            } catch {
                Issue.record(error)
                for gate in gated.gates.values { await gate.fire() }
            }
            scheduler.finish()
        }
        #expect(records.entries.filter { $0.message.contains("hold every slot") }.count == 1, "said once")
    }

    /// A slow call's notification holds its later events, from its batch and after it, until the call ends; the
    /// batch's other events are reported meanwhile, and each event is reported once.
    @Test(.timeLimit(.minutes(10)))
    func aSlowCallHoldsItsNotificationsLaterEventsAndNothingElse() async throws {
        let gated = Gated(gates: ["a": Signal()])
        var registry = try Fixtures.registry(extension: nil)
        try registry.register(gated)
        let store = InMemoryStateStore()
        let scheduler = ResponseScheduler<String>(
            pipeline: ResponsePipeline(registry: registry, store: store, logger: .quiet), maxConcurrentNotifications: 4)
        let completed = Journal<String>()
        let message = { (id: String, request: String) in Events.message(Events.response(id: id, request: request)) }

        await withTaskGroup(of: Void.self) { group in
            group.addTask { await scheduler.run() }
            group.addTask { for await completion in scheduler.completions { completed.append(completion.tag) } }
            do {
                scheduler.submit([
                    (message("a-1", "a"), "a-1", nil), (message("x-1", "x"), "x-1", nil), (message("a-2", "a"), "a-2", nil),
                    (message("y-1", "y"), "y-1", nil),
                ])
                try await waitFor("x and y") { Set(completed.entries) == ["x-1", "y-1"] }
                scheduler.submit([(message("a-3", "a"), "a-3", nil), (message("x-2", "x"), "x-2", nil)])
                try await waitFor("x's next") { completed.entries.count == 3 }
                #expect(completed.entries.last == "x-2")
                #expect(gated.started.entries.filter { $0 == "a" }.count == 1, "a's later events wait behind its call")

                await gated.gates["a"]!.fire()
                try await waitFor("a's events") { completed.entries.count == 6 }
                #expect(completed.entries.suffix(3) == ["a-1", "a-2", "a-3"], "in order, each once")
            } catch {
                Issue.record(error)
                await gated.gates["a"]!.fire()
            }
            scheduler.finish()
        }
        let record = try #require(await store.notification("a"))
        #expect(try EventCodec.decodeStored(Int.self, from: try #require(record.handlerStates["gated"])) == 3)
    }
}
