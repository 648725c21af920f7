import AMQP
import BrokerHarness
import Foundation
import NotificationEvents
import Responder
import Testing
import WorkerHarness

/// `responder publish` feeds a broker from a fixture, each message confirmed: lines that are not fixture lines are
/// reported and skipped, and `--repeat` gives each later pass new event and message ids.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct PublishCommandTests {
    /// The malformed session with its fixture lines pointed at `exchange`; the lines that are no fixture lines
    /// (2 and 4) stay as they are, and a blank line is added.
    static func fixture(exchange: String, in folder: URL) throws -> (url: URL, lines: [FixtureLine]) {
        var lines: [FixtureLine] = []
        var text: [String] = []
        for raw in try String(contentsOf: Paths.session("malformed"), encoding: .utf8).split(separator: "\n") {
            guard var line = try? EventCodec.decodeFixtureLine(Array(raw.utf8)) else {
                text.append(String(raw))
                continue
            }
            line.exchange = exchange
            lines.append(line)
            text.append(String(decoding: EventCodec.encode(line), as: UTF8.self))
        }
        text.insert("", at: 5)
        let url = folder.appendingPathComponent("session.jsonl")
        try (text.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
        return (url, lines)
    }

    @Test func publishesEveryFixtureLineAndSkipsTheRest() async throws {
        let topology = TestTopology("publish")
        let probe = try await QueueProbe.open(topology)
        let folder = try Paths.temporaryFolder()
        let (url, lines) = try Self.fixture(exchange: topology.topology.inputExchange, in: folder)

        let result = try await Tool.run(["publish", url.path], environment: ["RESPONDER_AMQP_URL": TestBroker.url ?? ""])
        #expect(result.status == 0, "\(result.stderr)")
        let skipped = result.stderr.split(separator: "\n").filter { $0.contains("skipped") }
        #expect(skipped.count == 2)
        #expect(skipped.first?.hasPrefix("publish: \(url.path):2 skipped") == true, "\(skipped)")
        #expect(skipped.last?.hasPrefix("publish: \(url.path):4 skipped") == true, "\(skipped)")
        #expect(result.stderr.contains("publish: \(lines.count) messages confirmed"))

        let published = try await probe.take(lines.count, from: topology.topology.inputQueue)
        #expect(published.count == lines.count)
        for (message, line) in zip(published, lines) {
            #expect(message.body == line.bodyBytes)
            #expect(message.routingKey == line.routingKey)
            #expect(message.properties.messageID == line.properties.messageID)
            #expect(message.properties.contentType == line.properties.contentType)
            #expect(message.properties.deliveryMode?.rawValue == line.properties.deliveryMode.map { UInt8($0.rawValue) })
        }
        await probe.cleanUp()
        try? FileManager.default.removeItem(at: folder)
    }

    @Test func repeatRenamesTheEventsOfEveryLaterPass() async throws {
        let topology = TestTopology("publish-repeat")
        let probe = try await QueueProbe.open(topology)
        let folder = try Paths.temporaryFolder()
        let (url, lines) = try Self.fixture(exchange: topology.topology.inputExchange, in: folder)

        let result = try await Tool.run(
            ["publish", url.path, "--repeat", "3", "--window", "4"], environment: ["RESPONDER_AMQP_URL": TestBroker.url ?? ""])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").filter { $0.contains("skipped") }.count == 2, "reported once")
        #expect(result.stderr.contains("publish: \(lines.count * 3) messages confirmed"))

        let published = try await probe.take(lines.count * 3, from: topology.topology.inputQueue)
        #expect(published.count == lines.count * 3)
        for (index, message) in published.enumerated() {
            let line = lines[index % lines.count]
            let pass = index / lines.count
            let suffix = pass == 0 ? "" : "-r\(pass)"
            #expect(message.properties.messageID == line.properties.messageID.map { $0 + suffix })
            guard case .object(var event)? = line.body, case .string(let id)? = event["id"] else {
                #expect(message.body == line.bodyBytes, "a body that is no event is published as it is")
                continue
            }
            event["id"] = .string(id + suffix)
            #expect(message.body == EventCodec.encode(JSONValue.object(event)), "\(id) in pass \(pass)")
        }
        await probe.cleanUp()
        try? FileManager.default.removeItem(at: folder)
    }

    /// A line the exchange routes to no queue would be lost without a word: the broker returns it, the command names
    /// its line, publishes the rest and exits with status 1.
    @Test func anUnroutableLineIsReportedWithItsNumber() async throws {
        let topology = TestTopology("publish-unroutable")
        let probe = try await QueueProbe.open(topology)
        let folder = try Paths.temporaryFolder()
        let nowhere = "\(topology.prefix).nowhere"
        try await probe.channel.declareExchange(nowhere, type: .topic, durable: false)
        var lines = Array(try QueueProbe.lines(of: Paths.session("rotations")).prefix(3))
        for index in lines.indices { lines[index].exchange = topology.topology.inputExchange }
        lines[1].exchange = nowhere
        let url = folder.appendingPathComponent("session.jsonl")
        try Data(lines.map { EventCodec.encode($0) + Array("\n".utf8) }.joined()).write(to: url)

        let result = try await Tool.run(["publish", url.path], environment: ["RESPONDER_AMQP_URL": TestBroker.url ?? ""])
        #expect(result.status == 1, "\(result.stderr)")
        let unroutable = result.stderr.split(separator: "\n").filter { $0.contains("unroutable") }
        #expect(unroutable.first?.hasPrefix("publish: \(url.path):2 unroutable") == true, "\(result.stderr)")
        #expect(unroutable.last == "publish: 1 unroutable, not published", "\(result.stderr)")
        #expect(result.stderr.contains("publish: 2 messages confirmed"))
        let published = try await probe.take(2, from: topology.topology.inputQueue)
        #expect(published.map(\.body) == [lines[0].bodyBytes, lines[2].bodyBytes])
        try await probe.channel.deleteExchange(nowhere)
        await probe.cleanUp()
        try? FileManager.default.removeItem(at: folder)
    }
}
