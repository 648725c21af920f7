import Foundation
import Testing

/// `--out` writes into the path it is given rather than replacing it: a symlink stays a link and its target gets the
/// lines, as a device such as /dev/null must stay a device (an atomic write used to rename a regular file over it).
@Suite(.timeLimit(.minutes(2))) struct ReplayOutPathTests {
    @Test func outWritesThroughASymlink() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("replay-out-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("target.jsonl")
        let link = directory.appendingPathComponent("link.jsonl")
        #expect(FileManager.default.createFile(atPath: target.path, contents: Data("stale\n".utf8)))
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)

        let process = Process()
        process.executableURL = Locations.responder
        process.arguments = ["replay", Locations.session("rotations").path, "--state", ":memory:", "--out", link.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()

        #expect(process.terminationStatus == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        #expect(try Data(contentsOf: target) == Data(contentsOf: Locations.golden("rotations")))
    }
}
