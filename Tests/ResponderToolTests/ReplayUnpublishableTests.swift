import BrokerHarness
import Foundation
import NotificationEvents
import Testing
import WorkerHarness

/// An event whose update could never be published (an id of 250 bytes makes the update's message-id too long)
/// is dead-lettered by replay as the worker dead-letters it, with nothing stored: its notification's next event
/// starts from the same state, and the event itself is no duplicate when it comes again.
@Suite(.timeLimit(.minutes(10))) struct ReplayUnpublishableTests {
    @Test func anEventWithAnUnpublishableUpdateLeavesNoStateBehind() async throws {
        let directory = try Paths.temporaryFolder("replay-unpublishable")
        defer { try? FileManager.default.removeItem(at: directory) }
        func fixture(_ name: String, id: String) throws -> String {
            let line = RedGreenTaps.line(
                RedGreenTaps.event(id: id, request: "long-id-note"), exchange: "notifications.responses")
            let url = directory.appendingPathComponent(name)
            try Data(EventCodec.encode(line) + Array("\n".utf8)).write(to: url)
            return url.path
        }
        let unpublishable = try fixture("long.jsonl", id: String(repeating: "x", count: 250))
        let valid = try fixture("valid.jsonl", id: "valid-1")
        let state = directory.appendingPathComponent("state.sqlite").path

        for _ in 0..<2 {
            let run = try await Tool.run(["replay", unpublishable, "--state", state])
            #expect(run.status == 1, "its one line dead-lettered, so no event was handled: \(run.stderr)")
            #expect(run.stdout.isEmpty)
            #expect(run.stderr.contains("line 1: dead-lettered (unpublishable)"), "\(run.stderr)")
            #expect(run.stderr.contains("the message-id property has 266 bytes, over 255"), "\(run.stderr)")
            #expect(run.stderr.contains("0 deduplicated"), "not in the inbox: \(run.stderr)")
        }
        let out = directory.appendingPathComponent("out.jsonl")
        let run = try await Tool.run(["replay", valid, "--state", state, "--out", out.path])
        #expect(run.status == 0, "\(run.stderr)")
        let updates = try QueueProbe.lines(of: out).map { try EventCodec.decodeActionSetUpdateEvent($0.bodyBytes) }
        #expect(updates.map(\.data.version) == [1], "the notification's first stored version")
    }
}
