import BrokerHarness
import Foundation
import RedGreenExample
import Responder
import ResponderSQLite
import Testing
import WorkerHarness

/// The recorded sessions of Fixtures/red-green replay to their golden outputs through the library.
@Suite(.timeLimit(.minutes(10))) struct FixtureReplayTests {
    static let sessions = Paths.sessions

    private static func replay(_ name: String, store: any StateStore = InMemoryStateStore()) async throws -> String {
        let pipeline = ResponsePipeline(registry: RedGreen.makeRegistry(), store: store, logger: .quiet)
        var text = ""
        _ = try await Replay(pipeline: pipeline).run(fixture: Paths.session(name), onOutput: { text += String(decoding: $0, as: UTF8.self) + "\n" })
        return text
    }

    @Test func theSessionsTakeEveryPath() {
        #expect(Self.sessions == [
            "default-and-dismiss", "demo", "interleaved", "lifecycle", "malformed", "redelivered", "rotations",
        ])
        for name in Self.sessions {
            #expect(FileManager.default.fileExists(atPath: Paths.golden(name).path), "\(name) has no golden")
        }
    }

    @Test(arguments: sessions)
    func replayMatchesTheGolden(session: String) async throws {
        let golden = try String(contentsOf: Paths.golden(session), encoding: .utf8)
        #expect(try await Self.replay(session) == golden)
    }

    @Test(arguments: sessions)
    func replayIsDeterministicAndTheSameWithTheSQLiteStore(session: String) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fixture-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteStateStore(path: directory.appendingPathComponent("state.sqlite").path)
        let withSQLite = try await Self.replay(session, store: store)
        // Everything is in the inbox now: a second run is all redeliveries and yields the same bytes again.
        let again = try await Self.replay(session, store: store)
        try store.close()
        let inMemory = try await Self.replay(session)
        #expect(withSQLite == inMemory)
        #expect(again == inMemory)
    }

    @Test func theSummariesCountEachPath() async throws {
        var summaries: [String: ReplaySummary] = [:]
        for name in Self.sessions {
            let pipeline = ResponsePipeline(
                registry: RedGreen.makeRegistry(), store: InMemoryStateStore(), logger: .quiet)
            summaries[name] = try await Replay(pipeline: pipeline).run(
                fixture: Paths.session(name), onOutput: { _ in })
        }
        #expect(summaries["rotations"]?.updated == 7)
        #expect(summaries["default-and-dismiss"]?.ignored == 1)
        #expect(summaries["redelivered"]?.deduplicated == 2)
        #expect(summaries["malformed"]?.deadLettered == 7)
        // Replacements and removals make the responses to the notifications they ended stale.
        #expect(summaries["lifecycle"]?.stale == 4)
        #expect(summaries["lifecycle"]?.deduplicated == 1)
        #expect(summaries["interleaved"]?.actions == ["rotate-twenty-degrees-action": 22, "reset-rotation-action": 1])
    }
}
