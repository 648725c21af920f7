import BrokerHarness
import Foundation
import Responder
import ResponderSQLite
import Testing
import WorkerHarness

/// `responder inspect`: one notification's stored state, version and recent inbox entries, read from the store its
/// command line names and never written.
@Suite(.timeLimit(.minutes(10)))
struct InspectCommandTests {
    @Test func printsTheNotificationsStateAndItsRecentEventsNewestFirst() async throws {
        let folder = try Paths.temporaryFolder("inspect")
        defer { try? FileManager.default.removeItem(at: folder) }
        let state = folder.appendingPathComponent("state.sqlite").path
        let replayed = try await Tool.run(["replay", Paths.session("demo").path, "--state", state, "--out", "/dev/null"])
        #expect(replayed.status == 0, "\(replayed.stderr)")

        let result = try await Tool.run(["inspect", "red-0001", "--state", state, "--entries", "3"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let store = try SQLiteStateStore(path: state)
        defer { try? store.close() }
        let record = try #require(try await store.notification("red-0001"))
        #expect(lines.first == "notification red-0001  category red-category  version \(record.version)")
        #expect(lines.contains { $0.hasPrefix("actions: [Rotate 20°] (rotate-twenty-degrees-action)") })
        #expect(lines.contains { $0.hasPrefix("state of red-green-rotation: {") })
        #expect(lines.contains("inbox: 3 most recent entries"))
        let recent = try await store.inboxEntries(of: "red-0001", limit: 3)
        let entryLines = lines.filter { $0.hasPrefix("  ") }
        #expect(entryLines.count == 3)
        for (line, entry) in zip(entryLines, recent) {
            #expect(line.contains(" \(entry.source) \(entry.eventID)  "), "\(line)")
            for output in entry.outputs { #expect(line.contains(output.properties.messageID ?? "?"), "\(line)") }
        }
    }

    @Test func aNotificationWithoutStateSaysSoAndAMissingFileIsNotCreated() async throws {
        let folder = try Paths.temporaryFolder("inspect")
        defer { try? FileManager.default.removeItem(at: folder) }
        let state = folder.appendingPathComponent("state.sqlite").path
        _ = try await Tool.run(["migrate", "--state", state])
        let empty = try await Tool.run(["inspect", "nobody", "--state", state])
        #expect(empty.status == 0, "\(empty.stderr)")
        #expect(empty.stdout.contains("notification nobody: no stored state"))
        #expect(empty.stdout.contains("inbox: 0 most recent entries"))

        let missing = folder.appendingPathComponent("typo.sqlite").path
        let refused = try await Tool.run(["inspect", "red-0001", "--state", missing])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("does not exist"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    @Test func theEnvironmentsStoreIsNeverRead() async throws {
        let result = try await Tool.run(["inspect", "red-0001"], environment: ["RESPONDER_STATE": "/nowhere/state.sqlite"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("must name the store"), "\(result.stderr)")
    }
}
