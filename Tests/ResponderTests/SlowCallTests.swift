import BrokerHarness
import Foundation
import Logging
import MetricsTestKit
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
        /// Notifications whose calls fail (retryably) once their gate opens.
        var failing: Set<String> = []
        let started = Journal<String>()

        func didReceive(_ response: NotificationResponse, context: inout ExtensionContext<Int>) async throws -> ResponseOption {
            started.append(context.requestIdentifier)
            if let gate = gates[context.requestIdentifier] { await gate.wait() }
            if failing.contains(context.requestIdentifier) { throw Boom() }
            context.state += 1
            return .doNotDismiss
        }
    }

    @Test(.timeLimit(.minutes(10)))
    func slowCallsHoldingEverySlotStopNewBatchesUntilOneEnds() async throws {
        let gated = Gated(gates: ["a": Signal(), "b": Signal()])
        let (scheduler, records, metrics) = try Self.scheduler(for: gated, slots: 2)
        let slowCalls = { try metrics.expectGauge(MetricDescription.slowHandlerCalls.name).lastValue }
        let completed = Journal<String>()
        let submit = { (request: String) in Self.submit(request, to: scheduler) }

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
                #expect(try slowCalls() == 2)
                #expect(!gated.started.entries.contains("c"), "no batch starts while slow calls hold every slot")
                #expect(completed.entries.isEmpty)

                await gated.gates["a"]!.fire()
                try await waitFor("a, then c in a's slot") { completed.entries == ["a", "c"] }
                #expect(gated.started.entries == ["a", "b", "c"])
                await gated.gates["b"]!.fire()
                try await waitFor("b") { completed.entries == ["a", "c", "b"] }
                #expect(try slowCalls() == 0)
            } catch {
                Issue.record(error)
                for gate in gated.gates.values { await gate.fire() }
            }
            scheduler.finish()
        }
        #expect(records.entries.filter { $0.message.contains("hold every slot") }.count == 1, "said once")
    }

    /// A slow call's event retried in place (ordered mode) keeps its slot through the retry's delay and call: the
    /// retry calls the handler again, up to its limit, so it counts against the bound as the first call did.
    @Test(.timeLimit(.minutes(10)))
    func aSlowCallRetriedInPlaceKeepsItsSlot() async throws {
        let gated = Gated(gates: ["a": Signal()], failing: ["a"])
        let (scheduler, records, metrics) = try Self.scheduler(for: gated, slots: 1, retryDelays: [.seconds(3600)])
        let submit = { (request: String) in Self.submit(request, to: scheduler) }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await scheduler.run() }
            group.addTask { for await _ in scheduler.completions {} }
            do {
                submit("a")
                try await waitFor("a's call, left behind by its batch") {
                    try metrics.expectGauge(MetricDescription.slowHandlerCalls.name).lastValue == 1
                }
                // a's call fails: its retry waits an hour in place.
                await gated.gates["a"]!.fire()
                submit("b")
                try await waitFor("the warning that slow calls hold every slot") {
                    records.entries.contains { $0.level == .warning && $0.message.contains("hold every slot") }
                }
                #expect(gated.started.entries == ["a"], "b waits for the slot a's retry holds")
            } catch {
                Issue.record(error)
            }
            group.cancelAll()
        }
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

    /// Fails `k1` for good; `k2`'s second call (after a conflict) waits on the gate.
    struct Scripted: NotificationContentExtension {
        struct Refused: HandlerFailure { var isRetryable: Bool { false } }

        let name = "scripted"
        let categoryIdentifiers: Set<String> = ["photo-category"]
        let initialState = 0
        let gate = Signal()
        let calls = Journal<String>()

        func didReceive(_ response: NotificationResponse, context: inout ExtensionContext<Int>) async throws -> ResponseOption {
            calls.append(context.eventID)
            if context.eventID == "k1" { throw Refused() }
            if calls.entries.filter({ $0 == "k2" }).count == 2 { await gate.wait() }
            context.state += 1
            return .doNotDismiss
        }
    }

    /// An event of a notification that settled in an earlier round of its batch is reported before a later event's
    /// slow call holds the notification: never queued again behind it, nor handled twice.
    @Test(.timeLimit(.minutes(10)))
    func anEventSettledBeforeItsNotificationsSlowCallIsReportedFirst() async throws {
        let scripted = Scripted()
        var registry = try Fixtures.registry(extension: nil)
        try registry.register(scripted)
        // Another writer commits just before k2's first commit (k1 commits nothing): k2 is handled again, slowly.
        let store = ConflictTests.InterferingStore(InMemoryStateStore(), interferences: 1)
        let scheduler = ResponseScheduler<String>(
            pipeline: ResponsePipeline(registry: registry, store: store, logger: .quiet), maxConcurrentNotifications: 2)
        let completed = Journal<String>()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await scheduler.run() }
            group.addTask { for await completion in scheduler.completions { completed.append(completion.tag) } }
            scheduler.submit(
                ["k1", "k2"].map { (Events.message(Events.response(id: $0, request: "a")), $0, nil) })
            do {
                try await waitFor("k1, while k2's call hangs") { completed.entries == ["k1"] }
                await scripted.gate.fire()
                try await waitFor("k2") { completed.entries == ["k1", "k2"] }
            } catch {
                Issue.record(error)
                await scripted.gate.fire()
            }
            scheduler.finish()
        }
        #expect(scripted.calls.entries == ["k1", "k2", "k2"], "k1 once")
    }

    /// Sleeps a few milliseconds on some calls and fails some first calls retryably, so that with a patience of
    /// 1 ms many chains outlast their batches, are retried in place, or both.
    struct Jittery: NotificationContentExtension {
        let name = "jittery"
        let categoryIdentifiers: Set<String> = ["photo-category"]
        let initialState: [String] = []
        let calls = Journal<String>()

        func didReceive(_ response: NotificationResponse, context: inout ExtensionContext<[String]>) async throws -> ResponseOption {
            calls.append(context.eventID)
            let digits = context.eventID.unicodeScalars.reduce(0) { $0 &+ Int($1.value) }
            if digits % 3 == 0 { try await Task.sleep(for: .milliseconds(digits % 7)) }
            if digits % 11 == 0, calls.entries.filter({ $0 == context.eventID }).count == 1 { throw Boom() }
            context.state.append(context.eventID)
            return .doNotDismiss
        }
    }

    /// Ordered mode's scheduler with slow chains in most batches and retries in place among them: each notification's
    /// events are still handled in the order they were submitted, each reported once.
    @Test(.timeLimit(.minutes(10)))
    func slowChainsAndRetriesInPlaceKeepEachNotificationsOrder() async throws {
        let jittery = Jittery()
        var registry = try Fixtures.registry(extension: nil)
        try registry.register(jittery)
        var configuration = PipelineConfiguration()
        configuration.slowCallPatience = .milliseconds(1)
        let store = InMemoryStateStore()
        let scheduler = ResponseScheduler<String>(
            pipeline: ResponsePipeline(registry: registry, store: store, configuration: configuration, logger: .quiet),
            maxConcurrentNotifications: 4, retryDelaysInPlace: [.milliseconds(2)], maxBatchSize: 16)
        let notifications = (0..<12).map { "n\($0)" }
        var ids: [String: [String]] = [:]
        var messages: [(InboundMessage, String)] = []
        for round in 0..<20 {
            for request in notifications.shuffled() {
                let id = "\(request)-e\(round)"
                ids[request, default: []].append(id)
                messages.append((Events.message(Events.response(id: id, request: request)), id))
            }
        }
        let completed = Journal<String>()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await scheduler.run() }
            group.addTask { for await completion in scheduler.completions { completed.append(completion.tag) } }
            for chunk in stride(from: 0, to: messages.count, by: 7) {
                scheduler.submit(messages[chunk..<min(chunk + 7, messages.count)].map { ($0.0, $0.1, nil) })
                await Task.yield()
            }
            scheduler.finish()
        }
        #expect(completed.entries.sorted() == messages.map(\.1).sorted(), "each reported once")
        for request in notifications {
            let record = try #require(await store.notification(request))
            let state = try EventCodec.decodeStored([String].self, from: try #require(record.handlerStates["jittery"]))
            #expect(state == ids[request], "\(request) in submission order")
            let reported = completed.entries.filter { $0.hasPrefix("\(request)-") }
            #expect(reported == ids[request], "\(request) reported in submission order")
        }
    }

    /// A scheduler of `slots` over `gated` alone, retrying in place after `retryDelays`, its log and its metrics.
    private static func scheduler(
        for gated: Gated, slots: Int, retryDelays: [Duration] = []
    ) throws -> (ResponseScheduler<String>, CapturingLogHandler.Records, TestMetrics) {
        var registry = try Fixtures.registry(extension: nil)
        try registry.register(gated)
        let (logger, records) = CapturingLogHandler.logger()
        let metrics = TestMetrics()
        let scheduler = ResponseScheduler<String>(
            pipeline: ResponsePipeline(registry: registry, store: InMemoryStateStore(), logger: logger),
            maxConcurrentNotifications: slots, retryDelaysInPlace: retryDelays, metrics: metrics)
        return (scheduler, records, metrics)
    }

    /// Submits event `<request>-1` of notification `request`, tagged with `request`.
    private static func submit(_ request: String, to scheduler: ResponseScheduler<String>) {
        scheduler.submit([(Events.message(Events.response(id: "\(request)-1", request: request)), request, nil)])
    }
}
