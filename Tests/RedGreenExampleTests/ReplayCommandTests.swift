import Foundation
import Testing

/// The built `responder replay` executable on the fixtures: golden outputs, exit status, state across processes.
@Suite(.timeLimit(.minutes(5))) struct ReplayCommandTests {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `responder` with `arguments` in `directory` and waits for it.
    private static func responder(_ arguments: [String], in directory: URL? = nil) throws -> Run {
        let process = Process()
        process.executableURL = Locations.responder
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // Read both pipes before waiting, so a full pipe cannot block the child.
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self))
    }

    private static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("replay-command-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func theExecutableIsBuilt() {
        #expect(
            FileManager.default.isExecutableFile(atPath: Locations.responder.path),
            "build the package (swift build) so \(Locations.responder.path) exists")
    }

    @Test(arguments: Locations.sessions)
    func replayMatchesTheGolden(session: String) throws {
        let golden = Locations.golden(session).path
        let run = try Self.responder([
            "replay", Locations.session(session).path, "--state", ":memory:", "--expect", golden,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == (try String(contentsOfFile: golden, encoding: .utf8)))
        #expect(run.stderr.contains("replay: the outputs match"))
        #expect(run.stderr.contains(" events: "))
    }

    @Test func undecodableLinesAreReportedOnStderrByLineNumber() throws {
        let run = try Self.responder(["replay", Locations.session("malformed").path, "--state", ":memory:"])
        #expect(run.status == 0)
        #expect(run.stderr.contains("replay: line 2: dead-lettered (malformed-json): the line is not valid JSON"))
        #expect(run.stderr.contains("replay: line 9: dead-lettered (unsupported-content-type)"))
        #expect(run.stderr.contains("16 events: 2 updated, 7 no update, 0 ignored, 0 deduplicated, 7 dead-lettered"))
    }

    @Test func aMismatchExitsWithStatusOneAndADiff() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let golden = try String(contentsOf: Locations.golden("rotations"), encoding: .utf8)
        let wrong = directory.appendingPathComponent("wrong.golden.jsonl")
        try golden.replacingOccurrences(of: "rotations-0010/", with: "rotations-0011/").write(
            to: wrong, atomically: true, encoding: .utf8)
        let run = try Self.responder([
            "replay", Locations.session("rotations").path, "--state", ":memory:", "--expect", wrong.path,
        ])
        #expect(run.status == 1)
        #expect(run.stderr.contains("the outputs differ from \(wrong.path)"))
        #expect(run.stderr.contains("@@ \(wrong.path) line 3, outputs line 3 @@"))
        #expect(run.stderr.contains("- {") && run.stderr.contains("+ {"))
    }

    @Test func outputsGoToTheOutFile() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out.jsonl")
        let run = try Self.responder([
            "replay", Locations.session("rotations").path, "--state", ":memory:", "--out", out.path,
        ])
        #expect(run.status == 0)
        #expect(run.stdout.isEmpty)
        #expect(try Data(contentsOf: out) == Data(contentsOf: Locations.golden("rotations")))
    }

    @Test func stateCarriesOverFromOneProcessToTheNext() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = try String(contentsOf: Locations.session("rotations"), encoding: .utf8)
            .split(separator: "\n").map { $0 + "\n" }
        let firstHalf = directory.appendingPathComponent("first.jsonl")
        let secondHalf = directory.appendingPathComponent("second.jsonl")
        try lines[..<12].joined().write(to: firstHalf, atomically: true, encoding: .utf8)
        try lines[12...].joined().write(to: secondHalf, atomically: true, encoding: .utf8)
        let state = directory.appendingPathComponent("state.sqlite").path

        let first = try Self.responder(["replay", firstHalf.path, "--state", state])
        let second = try Self.responder(["replay", secondHalf.path, "--state", state])
        #expect(first.status == 0 && second.status == 0)
        let golden = try String(contentsOf: Locations.golden("rotations"), encoding: .utf8)
        #expect(first.stdout + second.stdout == golden)
        // A third process gets the whole session again, as after a crash before the acks: nothing runs twice.
        let redelivered = try Self.responder(["replay", Locations.session("rotations").path, "--state", state])
        #expect(redelivered.stdout == golden)
        #expect(redelivered.stderr.contains("23 events: 0 updated, 0 no update, 0 ignored, 23 deduplicated"))
    }

    @Test func theDefaultStateIsAnSQLiteFileInTheWorkingDirectory() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try Self.responder(["replay", Locations.session("interleaved").path], in: directory)
        #expect(run.status == 0)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("responder-state.sqlite").path))
    }

    @Test func aMissingFixtureFails() throws {
        let run = try Self.responder(["replay", "/nonexistent/fixture.jsonl", "--state", ":memory:"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("fixture.jsonl"))
    }
}
