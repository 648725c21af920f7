import AMQP
import BrokerHarness
import Foundation
import NotificationEvents
import Responder
import ResponderWorker
import Testing
import WorkerHarness

/// `responder redrive` picks dead letters by message id, notification, category and time as well as by reason,
/// shows a message in full without what the user typed, and sends one back with a body the operator wrote, only
/// once the contract accepts it.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct RedriveSelectionTests {
    /// A dead-lettered response event: its id, notification, category and when it was dead-lettered.
    struct DeadLetter {
        var id: String
        var request: String
        var category: String
        var at: Date
        var userText: String?
    }

    static let morning = Date(timeIntervalSince1970: 1_795_165_200)  // 2026-11-20T09:00:00Z
    static let deadLetters = [
        DeadLetter(id: "ev-1", request: "red-1", category: "red-category", at: morning),
        DeadLetter(id: "ev-2", request: "green-1", category: "green-category", at: morning.addingTimeInterval(3600)),
        DeadLetter(id: "ev-3", request: "red-2", category: "red-category", at: morning.addingTimeInterval(7200)),
        DeadLetter(
            id: "ev-4", request: "red-1", category: "red-category", at: morning.addingTimeInterval(10800),
            userText: "meet me at the station"),
    ]

    static func fill(_ probe: QueueProbe) async throws {
        let topology = probe.topology.topology
        for deadLetter in deadLetters {
            var properties = MessageProperties()
            properties.messageID = deadLetter.id
            properties.contentType = "application/cloudevents+json"
            let info = DeadLetterInfo(
                reason: .handlerFailed, detail: "the handler failed", originalExchange: topology.inputExchange,
                originalRoutingKey: deadLetter.category, attempts: 3, firstFailure: deadLetter.at,
                lastFailure: deadLetter.at, worker: "worker-1")
            for (name, value) in info.headers { properties.headers[name] = FieldValue(value) }
            let event = Events.response(
                id: deadLetter.id, request: deadLetter.request, category: deadLetter.category,
                action: deadLetter.userText == nil ? .custom("rotate-twenty-degrees-action") : .custom("reply-action"),
                userText: deadLetter.userText)
            try await probe.channel.publish(
                EventCodec.encode(event), exchange: topology.deadLetterExchange, routingKey: deadLetter.category,
                properties: properties)
        }
        try await waitFor("the dead letters") {
            try await probe.count(topology.deadLetterQueue) == deadLetters.count
        }
    }

    /// The message ids a dry run with `arguments` would move, once what it read is back in the queue for the next.
    static func dryRun(_ arguments: [String], _ probe: QueueProbe) async throws -> [String] {
        let topology = probe.topology
        let result = try await Tool.run(
            ["redrive", "--dry-run"] + arguments, environment: RedriveCommandTests.environment(topology))
        #expect(result.status == 0, "\(result.stderr)")
        try await RedriveCommandTests.waitUntilBack(deadLetters.count, probe, "a dry run moves nothing")
        return result.stdout.split(separator: "\n").compactMap { line in
            line.hasPrefix("would move ") ? String(line.dropFirst("would move ".count).prefix { $0 != " " }) : nil
        }
    }

    @Test func eachSelectorPicksItsMessagesAndTheyCombine() async throws {
        let topology = TestTopology("redrive-select")
        let probe = try await QueueProbe.open(topology)
        try await Self.fill(probe)

        #expect(try await Self.dryRun(["--message-id", "ev-3"], probe) == ["ev-3"])
        #expect(try await Self.dryRun(["--request-identifier", "red-1"], probe) == ["ev-1", "ev-4"])
        #expect(try await Self.dryRun(["--category", "red-category"], probe) == ["ev-1", "ev-3", "ev-4"])
        #expect(
            try await Self.dryRun(["--since", "2026-11-20T10:00:00Z", "--until", "2026-11-20T12:00:00Z"], probe)
                == ["ev-2", "ev-3"])
        #expect(
            try await Self.dryRun(["--category", "red-category", "--since", "2026-11-20T10:00:00Z"], probe)
                == ["ev-3", "ev-4"])
        #expect(try await Self.dryRun(["--reason", "invalid-field"], probe) == [])

        let moved = try await Tool.run(
            ["redrive", "--request-identifier", "red-1"], environment: RedriveCommandTests.environment(topology))
        #expect(moved.stderr.contains("redrive: moved 2, left 2"), "\(moved.stderr)")
        let back = try await probe.take(2, from: topology.topology.inputQueue)
        #expect(Set(back.compactMap(\.properties.messageID)) == ["ev-1", "ev-4"])
        let kept = try await probe.take(2, from: topology.topology.deadLetterQueue)
        #expect(kept.compactMap(\.properties.messageID) == ["ev-2", "ev-3"], "the others stay, in order")
        await probe.cleanUp()
    }

    @Test func aBadTimeIsRefusedBeforeTheBrokerIsAsked() async throws {
        let result = try await Tool.run(["redrive", "--since", "yesterday"], environment: ["RESPONDER_AMQP_URL": "amqp://127.0.0.1:1/"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--since: not an RFC 3339 time"), "\(result.stderr)")
    }

    @Test func showPrintsTheMessageInFullButNotWhatTheUserTyped() async throws {
        let topology = TestTopology("redrive-show")
        let probe = try await QueueProbe.open(topology)
        try await Self.fill(probe)

        let result = try await Tool.run(
            ["redrive", "--dry-run", "--show", "--message-id", "ev-4"], environment: RedriveCommandTests.environment(topology))
        #expect(result.status == 0, "\(result.stderr)")
        let shown = try #require(result.stdout.split(separator: "\n").first.map(String.init))
        let line = try EventCodec.decodeFixtureLine(Array(shown.utf8))
        #expect(line.properties.messageID == "ev-4")
        #expect(line.properties.headers["x-responder-reason"] == .string("handler-failed"))
        #expect(!result.stdout.contains("station"), "the user's text is never shown")
        #expect(shown.contains("(22 characters, not shown)"))
        await probe.cleanUp()
    }

    @Test func aReplacedBodyGoesBackOnlyOnceTheContractAcceptsIt() async throws {
        let topology = TestTopology("redrive-replace")
        let probe = try await QueueProbe.open(topology)
        try await Self.fill(probe)
        let folder = try Paths.temporaryFolder()
        let invalid = folder.appendingPathComponent("invalid.json")
        try Data(#"{"specversion": "1.0", "id": "ev-2"}"#.utf8).write(to: invalid)
        let refused = try await Tool.run(
            ["redrive", "--message-id", "ev-2", "--replace-body", invalid.path],
            environment: RedriveCommandTests.environment(topology))
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("is not a valid event for this message"), "\(refused.stderr)")
        try await RedriveCommandTests.waitUntilBack(Self.deadLetters.count, probe, "nothing moved")
        #expect(try await probe.count(topology.topology.inputQueue) == 0, "nothing moved")

        let fixed = Events.response(id: "ev-2", request: "green-1", category: "green-category", action: .default)
        let valid = folder.appendingPathComponent("valid.json")
        try Data(EventCodec.encode(fixed)).write(to: valid)
        let result = try await Tool.run(
            ["redrive", "--message-id", "ev-2", "--replace-body", valid.path],
            environment: RedriveCommandTests.environment(topology))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("redrive: moved 1, left 3"))
        let back = try #require(try await probe.take(1, from: topology.topology.inputQueue).first)
        #expect(back.body == EventCodec.encode(fixed))
        #expect(back.properties.messageID == "ev-2")

        let unselected = try await Tool.run(
            ["redrive", "--replace-body", valid.path], environment: RedriveCommandTests.environment(topology))
        #expect(unselected.status != 0)
        #expect(unselected.stderr.contains("--replace-body needs --message-id"), "\(unselected.stderr)")
        await probe.cleanUp()
    }
}
