import AMQP
import BrokerHarness
import Foundation
import NotificationEvents
import Responder
import Testing
import WorkerHarness

/// `responder record` writes what arrives at the input exchange as fixture lines, through a tap queue of its own,
/// so the worker's queue keeps every event.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct RecordCommandTests {
    @Test func recordsEveryInputWithoutTakingItFromTheWorkersQueue() async throws {
        let topology = TestTopology("record")
        let probe = try await QueueProbe.open(topology)
        let folder = try Paths.temporaryFolder()
        let out = folder.appendingPathComponent("recorded.jsonl")
        let session = try QueueProbe.lines(of: Paths.session("interleaved"))

        let record = try Tool(
            ["record", "--out", out.path, "--limit", "\(session.count)"],
            environment: ["RESPONDER_AMQP_URL": TestBroker.url ?? "", "RESPONDER_INPUT_EXCHANGE": topology.topology.inputExchange])
        try await record.waitForStandardError(containing: "record: tapping \(topology.topology.inputExchange)")
        try await probe.publish(session)
        #expect(try await record.waitForExit() == 0, "\(record.stderr)")
        #expect(record.stderr.contains("record: \(session.count) messages"))
        #expect(try Self.mode(of: out) == 0o600, "what users typed is for the file's owner only")

        let recorded = try String(contentsOf: out, encoding: .utf8).split(separator: "\n").map {
            try EventCodec.decodeFixtureLine(Array($0.utf8))
        }
        #expect(recorded.count == session.count)
        for (line, original) in zip(recorded, session) {
            #expect(line.exchange == topology.topology.inputExchange)
            #expect(line.routingKey == original.routingKey)
            #expect(line.properties == original.properties)
            #expect(line.bodyBytes == original.bodyBytes)
            #expect(line.redelivered == false)
        }
        #expect(try await probe.count(topology.topology.inputQueue) == session.count, "the worker's queue kept every event")

        // The recording replays to the session's golden updates.
        let replay = try await Tool.run([
            "replay", out.path, "--state", ":memory:", "--expect", Paths.golden("interleaved").path,
        ])
        #expect(replay.status == 0, "\(replay.stderr)")
        await probe.cleanUp()
        try? FileManager.default.removeItem(at: folder)
    }

    /// The permission bits of the file at `url`.
    static func mode(of url: URL) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
    }

    @Test func anExistingFileIsMadeReadableByItsOwnerOnly() async throws {
        let topology = TestTopology("record-existing")
        let probe = try await QueueProbe.open(topology)
        let folder = try Paths.temporaryFolder()
        let out = folder.appendingPathComponent("recorded.jsonl")
        try Data("an older recording\n".utf8).write(to: out)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: out.path)
        let record = try Tool(
            ["record", "--out", out.path, "--limit", "1", "--input-exchange", topology.topology.inputExchange],
            environment: ["RESPONDER_AMQP_URL": TestBroker.url ?? ""])
        try await record.waitForStandardError(containing: "record: tapping")
        try await probe.publish(Array(try QueueProbe.lines(of: Paths.session("rotations")).prefix(1)))
        #expect(try await record.waitForExit() == 0, "\(record.stderr)")
        #expect(try Self.mode(of: out) == 0o600)
        #expect(try String(contentsOf: out, encoding: .utf8).split(separator: "\n").count == 1)
        await probe.cleanUp()
        try? FileManager.default.removeItem(at: folder)
    }

    @Test func aSymbolicLinkIsRefusedAndItsTargetLeftAlone() async throws {
        let folder = try Paths.temporaryFolder()
        let target = folder.appendingPathComponent("someone-elses-file")
        try Data("kept\n".utf8).write(to: target)
        let link = folder.appendingPathComponent("recorded.jsonl")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        // No broker listens there: refused before connecting, the command ends at once; writing through the link
        // would have emptied the target before the connection failed.
        let result = try await Tool.run(
            ["record", "--out", link.path, "--limit", "1"], environment: ["RESPONDER_AMQP_URL": "amqp://127.0.0.1:1/"])
        #expect(result.status != 0)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("\(link.path) is a symbolic link"), "\(result.stderr)")
        #expect(try String(contentsOf: target, encoding: .utf8) == "kept\n")
        try? FileManager.default.removeItem(at: folder)
    }

    /// A FIFO someone planted at the path would hand the recording to whoever reads it: refused, without waiting
    /// for a reader.
    @Test func aFIFOIsRefused() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("recorded.jsonl")
        #expect(mkfifo(fifo.path, 0o666) == 0)
        let result = try await Tool.run(
            ["record", "--out", fifo.path, "--limit", "1"], environment: ["RESPONDER_AMQP_URL": "amqp://127.0.0.1:1/"])
        #expect(result.status != 0)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("\(fifo.path) is neither a file nor a device"), "\(result.stderr)")
    }

    @Test func recordsToStandardOutput() async throws {
        let topology = TestTopology("record-stdout")
        let probe = try await QueueProbe.open(topology)
        let record = try Tool(
            ["record", "--out", "-", "--limit", "2", "--input-exchange", topology.topology.inputExchange],
            environment: ["RESPONDER_AMQP_URL": TestBroker.url ?? ""])
        try await record.waitForStandardError(containing: "into stdout")
        let lines = try QueueProbe.lines(of: Paths.session("rotations")).prefix(2)
        try await probe.publish(Array(lines))
        #expect(try await record.waitForExit() == 0, "\(record.stderr)")
        let recorded = record.stdout.split(separator: "\n")
        #expect(recorded.count == 2)
        #expect(try recorded.map { try EventCodec.decodeFixtureLine(Array($0.utf8)).bodyBytes } == lines.map(\.bodyBytes))
        await probe.cleanUp()
    }
}
