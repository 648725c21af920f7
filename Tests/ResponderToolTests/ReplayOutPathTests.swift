import BrokerHarness
import Foundation
import Testing
import WorkerHarness

/// `--out` writes into the path it is given rather than replacing it: a symlink stays a link and its target gets the
/// lines, as a device such as /dev/null must stay a device (an atomic write used to rename a regular file over it).
@Suite(.timeLimit(.minutes(10))) struct ReplayOutPathTests {
    @Test func outWritesThroughASymlink() async throws {
        let directory = try Paths.temporaryFolder("replay-out")
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("target.jsonl")
        let link = directory.appendingPathComponent("link.jsonl")
        #expect(FileManager.default.createFile(atPath: target.path, contents: Data("stale\n".utf8)))
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)

        let run = try await Tool.run(
            ["replay", Paths.session("rotations").path, "--state", ":memory:", "--out", link.path])

        #expect(run.status == 0, "\(run.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        #expect(try Data(contentsOf: target) == Data(contentsOf: Paths.golden("rotations")))
    }
}
