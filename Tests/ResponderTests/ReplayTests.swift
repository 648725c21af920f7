import Foundation
import Logging
import NotificationEvents
import PipelineHarness
import Responder
import StoreHarness
import Testing

/// Replay writes outputs in input order, reports what it could not handle by line, and counts everything.
@Suite struct ReplayTests {
    /// Holds the first event of notification "slow" until notification "fast" is done, so "slow" completes last.
    struct LateStarter: NotificationContentExtension {
        let name = "late-starter"
        let categoryIdentifiers: Set<String> = ["photo-category"]
        let initialState = 0
        let fastDone = Signal()

        func didReceive(
            _ response: NotificationResponse, context: inout ExtensionContext<Int>
        ) async throws -> ResponseOption {
            context.state += 1
            if context.requestIdentifier == "slow", context.state == 1 { await fastDone.wait() }
            if context.requestIdentifier == "fast", context.state == 3 { await fastDone.fire() }
            context.setNotificationActions([
                NotificationAction(identifier: "\(context.requestIdentifier)-\(context.state)", title: "")
            ])
            return .doNotDismiss
        }
    }

    private func fixture(_ lines: [String], in directory: TemporaryDirectory) throws -> URL {
        let url = directory.url.appendingPathComponent("fixture.jsonl")
        try Data(lines.joined(separator: "\n").utf8).write(to: url)
        return url
    }

    private func line(_ event: NotificationResponseEvent, redelivered: Bool = false) -> String {
        String(decoding: EventCodec.encode(FixtureLine(delivered: Events.message(event, redelivered: redelivered))), as: UTF8.self)
    }

    private func replay(
        _ url: URL, extension handler: some NotificationContentExtension
    ) async throws -> (outputs: [String], problems: [ReplayProblem], summary: ReplaySummary) {
        var registry = try Fixtures.registry(extension: nil)
        try registry.register(handler)
        let pipeline = ResponsePipeline(registry: registry, store: InMemoryStateStore(), logger: .quiet)
        var outputs: [String] = []
        var problems: [ReplayProblem] = []
        let summary = try await Replay(pipeline: pipeline, maxConcurrentNotifications: 2).run(
            fixture: url, onOutput: { outputs.append(String(decoding: $0, as: UTF8.self)) }, onProblem: { problems.append($0) })
        return (outputs, problems, summary)
    }

    @Test(.timeLimit(.minutes(10)))
    func outputsFollowInputOrderWhateverOrderNotificationsFinishIn() async throws {
        let directory = try TemporaryDirectory()
        let url = try fixture(
            [
                line(Events.response(id: "s1", request: "slow")),
                line(Events.response(id: "f1", request: "fast")),
                line(Events.response(id: "f2", request: "fast")),
                line(Events.response(id: "f3", request: "fast")),
                line(Events.response(id: "s2", request: "slow")),
            ], in: directory)
        let (outputs, problems, summary) = try await replay(url, extension: LateStarter())
        let identifiers = try outputs.map {
            try EventCodec.decodeFixtureLine(Array($0.utf8)).body?.causation
        }
        #expect(identifiers == ["s1", "f1", "f2", "f3", "s2"])
        #expect(problems.isEmpty)
        #expect(summary.updated == 5 && summary.outputs == 5 && summary.events == 5)
    }

    /// A fixture longer than a batch: each notification's events go on across batches from the state the last batch
    /// left, a line that is no delivery is reported in its place, and the outputs keep the input order.
    @Test func aFixtureLongerThanABatchGoesOnFromBatchToBatchInOrder() async throws {
        let directory = try TemporaryDirectory()
        var lines = (0..<600).map { n in line(Events.response(id: "e\(n)", request: "note-\(n % 3)")) }
        lines.insert("not a delivery", at: 300)
        let url = try fixture(lines, in: directory)
        let counter = TestExtension(actionSets: { state in [[NotificationAction(identifier: "taps-\(state.taps)", title: "")]] })
        let (outputs, problems, summary) = try await replay(url, extension: counter)
        let updates = try outputs.map {
            try EventCodec.decodeActionSetUpdateEvent(EventCodec.decodeFixtureLine(Array($0.utf8)).bodyBytes).data
        }
        let expected = (0..<600).map { n -> [String] in ["e\(n)", "taps-\(n / 3 + 1)", "\(n / 3 + 1)"] }
        let got = updates.map { update -> [String] in
            [update.causationId, update.actions.first?.identifier ?? "", "\(update.version)"]
        }
        #expect(got == expected)
        #expect(problems.map(\.line) == [301])
        #expect(summary.updated == 600 && summary.deadLettered == 1)
    }

    /// A hand-written fixture of bare events (no delivery around them) says so, instead of naming a missing key.
    @Test func aBareCloudEventOnALineSaysWhatALineIs() async throws {
        let directory = try TemporaryDirectory()
        let url = try fixture([String(decoding: EventCodec.encode(Events.response(id: "e1")), as: UTF8.self)], in: directory)
        let (_, problems, _) = try await replay(url, extension: TestExtension())
        #expect(problems.map(\.description) == [
            "line 1: dead-lettered (invalid-field): a bare CloudEvent, not a fixture line: a line records a delivery, "
                + #"{"exchange": …, "routingKey": …, "properties": {…}, "body": the event} (responder record writes such lines)"#
        ])
    }

    @Test func undecodableLinesAreReportedByLineNumberAndTheRunGoesOn() async throws {
        let directory = try TemporaryDirectory()
        let handler = TestExtension(actionSets: { _ in [[Fixtures.like]] })
        let first = Events.response(id: "e1")
        let url = try fixture(
            [
                line(first),
                "",
                "not json at all",
                #"{"exchange": "x", "properties": {}}"#,
                line(Events.response(id: "e2", action: .dismiss)),
                "   ",
                line(first, redelivered: true),
                line(Events.response(id: "e3", category: "plain-category", action: .dismiss)),
                line(Events.response(id: "e4")),
                #"{"exchange": 5, "routingKey": "r", "properties": {}}"#,
            ], in: directory)
        let (outputs, problems, summary) = try await replay(url, extension: handler)
        #expect(
            problems.dropLast().map(\.description) == [
                "line 3: dead-lettered (malformed-json): the line is not valid JSON",
                "line 4: dead-lettered (invalid-field): not a fixture line: routingKey: missing",
            ])
        #expect(
            problems.last?.description.hasPrefix(
                "line 10: dead-lettered (invalid-field): not a fixture line: exchange: ") == true)
        #expect(outputs.count == 3)
        #expect(outputs[0] == outputs[1], "the redelivered event's stored output is written again, byte for byte")
        var expected = ReplaySummary()
        (expected.events, expected.updated, expected.noUpdate, expected.ignored) = (8, 2, 1, 1)
        (expected.deduplicated, expected.deadLettered, expected.failed, expected.outputs) = (1, 3, 0, 3)
        expected.actions = ["like-action": 3, ActionIdentifier.dismissActionIdentifier: 2]
        #expect(summary == expected)
        #expect(
            summary.description.hasPrefix(
                "8 events: 2 updated, 1 no update, 1 ignored, 1 deduplicated, 3 dead-lettered, 0 failed; 3 outputs"))
    }

    @Test func failuresAreReportedAndCounted() async throws {
        let directory = try TemporaryDirectory()
        let url = try fixture([line(Events.response(id: "e1"))], in: directory)
        let (outputs, problems, summary) = try await replay(
            url, extension: TestExtension(failure: { PermanentFailure("no such photo") }))
        #expect(outputs.isEmpty)
        #expect(problems.map(\.description) == ["line 1: failed (permanent): no such photo"])
        #expect(summary.failed == 1)
    }

    @Test func aMissingFixtureIsAnError() async throws {
        let directory = try TemporaryDirectory()
        await #expect(throws: (any Error).self) {
            _ = try await replay(directory.url.appendingPathComponent("missing.jsonl"), extension: TestExtension())
        }
    }
}

extension JSONValue {
    /// The causation id of a fixture line's action-set update body.
    fileprivate var causation: String? {
        guard case .object(let body) = self, case .object(let data)? = body["data"],
            case .string(let id)? = data["causationId"]
        else { return nil }
        return id
    }
}
