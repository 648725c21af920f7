import BrokerHarness
import Foundation
import Testing
import WorkerHarness

/// The built `responder replay` executable on the fixtures: golden outputs, exit status, state across processes.
@Suite(.timeLimit(.minutes(10))) struct ReplayCommandTests {
    @Test func theExecutableIsBuilt() {
        #expect(
            FileManager.default.isExecutableFile(atPath: Paths.responder.path),
            "build the package (swift build) so \(Paths.responder.path) exists")
    }

    /// Every session matches its golden; only the malformed one, whose broken lines are its point, needs
    /// `--allow-dead-letters`. With `--expect` and no `--out`, the outputs are compared, not printed.
    @Test(arguments: Paths.sessions)
    func replayMatchesTheGolden(session: String) async throws {
        let golden = Paths.golden(session).path
        let allow = session == "malformed" ? ["--allow-dead-letters"] : []
        let run = try await Tool.run([
            "replay", Paths.session(session).path, "--state", ":memory:", "--expect", golden,
        ] + allow)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.isEmpty, "with --expect, outputs go only to --out")
        #expect(run.stderr.contains("replay: the outputs match"))
        #expect(run.stderr.contains(" events: "))
        #expect(!run.stderr.contains("--allow-dead-letters to accept them"), "\(run.stderr)")
    }

    /// `--expect` with `--out`: the outputs are written there and compared.
    @Test func expectWritesTheOutputsOnlyToOut() async throws {
        let directory = try Paths.temporaryFolder("replay-command")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out.jsonl")
        let golden = Paths.golden("rotations")
        let run = try await Tool.run([
            "replay", Paths.session("rotations").path, "--expect", golden.path, "--out", out.path,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.isEmpty)
        #expect(try Data(contentsOf: out) == Data(contentsOf: golden))
    }

    /// The handler-call settings are run's, read and checked through the one settings table: a replay runs the
    /// handlers under the limits a worker would.
    @Test func replayTakesRunsHandlerCallSettings() async throws {
        let golden = Paths.golden("rotations").path
        let session = Paths.session("rotations").path
        let run = try await Tool.run([
            "replay", session, "--expect", golden,
            "--handler-timeout", "5", "--dependency-failures", "2", "--max-abandoned-calls", "10",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let refused: [([String], [String: String], String)] = [
            (["--handler-timeout", "0"], [:], "Error: --handler-timeout 0: must be a whole number from 1 to 3600"),
            (["--dependency-failures", "0"], [:], "Error: --dependency-failures 0: must be a whole number from 1 to 10000"),
            (["--max-abandoned-calls", "0"], [:], "Error: --max-abandoned-calls 0: must be a whole number from 1 to 100000"),
            ([], ["RESPONDER_HANDLER_TIMEOUT": "soon"], "Error: RESPONDER_HANDLER_TIMEOUT=soon: must be a whole number from 1 to 3600"),
        ]
        for (arguments, environment, error) in refused {
            let refusal = try await Tool.run(["replay", session] + arguments, environment: environment)
            #expect(refusal.status != 0, "\(arguments) \(environment)")
            #expect(refusal.stderr.contains(error), "\(refusal.stderr)")
        }
    }

    @Test func undecodableLinesAreReportedOnStderrByLineNumber() async throws {
        let run = try await Tool.run(["replay", Paths.session("malformed").path, "--state", ":memory:"])
        #expect(run.stderr.contains("replay: line 2: dead-lettered (malformed-json): the line is not valid JSON"))
        #expect(run.stderr.contains("replay: line 9: dead-lettered (unsupported-content-type)"))
        #expect(run.stderr.contains("16 events: 2 updated, 7 no update, 0 ignored, 0 deduplicated, 7 dead-lettered"))
    }

    /// A hand-written fixture with a broken line fails the job that replays it, with or without a golden, unless
    /// the dead letters are allowed; a fixture of which no line could be handled fails even then.
    @Test func aDeadLetteredLineExitsWithStatusOneUnlessAllowed() async throws {
        let malformed = ["replay", Paths.session("malformed").path, "--out", "/dev/null"]
        let golden = ["--expect", Paths.golden("malformed").path]
        for arguments in [malformed, malformed + golden] {
            let run = try await Tool.run(arguments)
            #expect(run.status == 1, "\(arguments): \(run.stderr)")
            #expect(run.stderr.hasSuffix(
                "replay: 7 lines were dead-lettered or failed (the lines above say why); "
                    + "--allow-dead-letters to accept them\n"), "\(run.stderr)")
            let allowed = try await Tool.run(arguments + ["--allow-dead-letters"])
            #expect(allowed.status == 0, "\(arguments): \(allowed.stderr)")
            #expect(!allowed.stderr.contains("--allow-dead-letters to accept them"), "\(allowed.stderr)")
        }
        let help = try await Tool.run(["replay", "--help"])
        #expect(help.stdout.contains("--allow-dead-letters"), "\(help.stdout)")
    }

    /// A fixture of which no line could be handled is a failed replay, however many lines it had.
    @Test func aReplayThatHandledNoEventExitsWithStatusOne() async throws {
        let directory = try Paths.temporaryFolder("replay-command")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fixture = directory.appendingPathComponent("broken.jsonl")
        try "not json\n{\"exchange\": 5}\n".write(to: fixture, atomically: true, encoding: .utf8)
        let run = try await Tool.run(["replay", fixture.path, "--allow-dead-letters"])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.hasSuffix(
            "replay: no event was handled: every line was dead-lettered or failed (the lines above say why)\n"),
            "\(run.stderr)")
    }

    /// `--expect` against a store that outlives the run: the second run's outputs come from the inbox, whatever
    /// the handlers do now, and the run says so. In memory (the default), redeliveries within the fixture are
    /// answered from the inbox too, without the warning.
    @Test func expectAgainstAStoredInboxWarnsThatTheHandlersDidNotRun() async throws {
        let directory = try Paths.temporaryFolder("replay-command")
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("state.sqlite").path
        let golden = Paths.golden("rotations").path
        let arguments = ["replay", Paths.session("rotations").path, "--state", state, "--expect", golden]
        let first = try await Tool.run(arguments)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(!first.stderr.contains("warning"), "\(first.stderr)")
        let second = try await Tool.run(arguments)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains(
            "events were answered from the state store's inbox, not by the handlers; to test the handlers, replay into "
                + "a fresh store (without --state, in memory)"), "\(second.stderr)")
        let inMemory = try await Tool.run([
            "replay", Paths.session("redelivered").path, "--expect", Paths.golden("redelivered").path,
        ])
        #expect(inMemory.status == 0, "\(inMemory.stderr)")
        #expect(!inMemory.stderr.contains("warning"), "\(inMemory.stderr)")
    }

    @Test func aMismatchExitsWithStatusOneAndADiff() async throws {
        let directory = try Paths.temporaryFolder("replay-command")
        defer { try? FileManager.default.removeItem(at: directory) }
        let golden = try String(contentsOf: Paths.golden("rotations"), encoding: .utf8)
        let wrong = directory.appendingPathComponent("wrong.golden.jsonl")
        try golden.replacingOccurrences(of: "rotations-0010/", with: "rotations-0011/").write(
            to: wrong, atomically: true, encoding: .utf8)
        let run = try await Tool.run([
            "replay", Paths.session("rotations").path, "--state", ":memory:", "--expect", wrong.path,
        ])
        #expect(run.status == 1)
        #expect(run.stderr.contains("the outputs differ from \(wrong.path)"))
        #expect(run.stderr.contains("@@ \(wrong.path) line 3, outputs line 3 @@"))
        #expect(run.stderr.contains("- {") && run.stderr.contains("+ {"))
    }

    @Test func outputsGoToTheOutFile() async throws {
        let directory = try Paths.temporaryFolder("replay-command")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out.jsonl")
        let run = try await Tool.run([
            "replay", Paths.session("rotations").path, "--state", ":memory:", "--out", out.path,
        ])
        #expect(run.status == 0)
        #expect(run.stdout.isEmpty)
        #expect(try Data(contentsOf: out) == Data(contentsOf: Paths.golden("rotations")))
    }

    @Test func stateCarriesOverFromOneProcessToTheNext() async throws {
        let directory = try Paths.temporaryFolder("replay-command")
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = try String(contentsOf: Paths.session("rotations"), encoding: .utf8)
            .split(separator: "\n").map { $0 + "\n" }
        let firstHalf = directory.appendingPathComponent("first.jsonl")
        let secondHalf = directory.appendingPathComponent("second.jsonl")
        try lines[..<12].joined().write(to: firstHalf, atomically: true, encoding: .utf8)
        try lines[12...].joined().write(to: secondHalf, atomically: true, encoding: .utf8)
        let state = directory.appendingPathComponent("state.sqlite").path

        let first = try await Tool.run(["replay", firstHalf.path, "--state", state])
        let second = try await Tool.run(["replay", secondHalf.path, "--state", state])
        #expect(first.status == 0 && second.status == 0)
        let golden = try String(contentsOf: Paths.golden("rotations"), encoding: .utf8)
        #expect(first.stdout + second.stdout == golden)
        // A third process gets the whole session again, as after a crash before the acks: nothing runs twice.
        let redelivered = try await Tool.run(["replay", Paths.session("rotations").path, "--state", state])
        #expect(redelivered.stdout == golden)
        #expect(redelivered.stderr.contains("23 events: 0 updated, 0 no update, 0 ignored, 23 deduplicated"))
    }

    /// Every container sets `RESPONDER_STATE` or `RESPONDER_STATE_FILE` for `run`; a replay in that environment
    /// keeps its state in memory and never writes into the store they name (nor a default file), so a second run
    /// deduplicates nothing.
    @Test func theEnvironmentsStoreIsNeverReplayedInto() async throws {
        let directory = try Paths.temporaryFolder("replay-command")
        defer { try? FileManager.default.removeItem(at: directory) }
        let production = directory.appendingPathComponent("production.sqlite").path
        let secret = try StateSecret.file(holding: production, in: directory)
        let golden = try String(contentsOf: Paths.golden("rotations"), encoding: .utf8)
        for environment in [["RESPONDER_STATE": production], ["RESPONDER_STATE_FILE": secret.path]] {
            for _ in 1...2 {
                let run = try await Tool.run(
                    ["replay", Paths.session("rotations").path], environment: environment, directory: directory)
                #expect(run.status == 0, "\(run.stderr)")
                #expect(run.stdout == golden)
                #expect(run.stderr.contains(" 0 deduplicated"), "\(environment): \(run.stderr)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: production))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [secret.lastPathComponent])
    }

    /// `--state-file` names a file holding the store's location (a mounted secret), so a PostgreSQL password
    /// stays off the command line; it is read only because the command line names it.
    @Test func aStateFileOnTheCommandLineNamesTheStore() async throws {
        let directory = try Paths.temporaryFolder("replay-command")
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("state.sqlite").path
        let secret = try StateSecret.file(holding: state, in: directory)
        let arguments = ["replay", Paths.session("rotations").path, "--state-file", secret.path]
        let first = try await Tool.run(arguments)
        let second = try await Tool.run(arguments)
        #expect(first.status == 0 && second.status == 0, "\(first.stderr)\(second.stderr)")
        #expect(second.stderr.contains("23 events: 0 updated, 0 no update, 0 ignored, 23 deduplicated"))
        let both = try await Tool.run(arguments + ["--state", ":memory:"])
        #expect(both.status != 0)
        #expect(both.stderr == "Error: give --state or --state-file, not both\n")
    }

    @Test func aMissingFixtureFails() async throws {
        let run = try await Tool.run(["replay", "/nonexistent/fixture.jsonl", "--state", ":memory:"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("fixture.jsonl"))
    }
}
