import BrokerHarness
import Foundation
import Testing
import WorkerHarness

/// `scripts/bench --baseline REV` builds REV's release binary in a git worktree under .build-bench/ and runs each
/// responder row on both, so a before-and-after comparison is one command.
@Suite struct BenchBaselineTests {
    /// A repository with two commits of one file, "old" then "new"; returns its folder.
    static func twoCommits() async throws -> URL {
        let repo = try Paths.temporaryFolder("bench-baseline")
        let script = """
            import subprocess; from pathlib import Path
            repo = sys.argv[1]
            git = lambda *a: subprocess.run(["git", "-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", *a], check=True, capture_output=True)
            git("init", "-q")
            for text in ("old", "new"):
                Path(repo, "f").write_text(text); git("add", "f"); git("commit", "-qm", text)
            """
        let made = try await BenchHarness.python(script, [repo.path])
        #expect(made.status == 0, "\(made.output)")
        return repo
    }

    @Test func theBaselineIsAWorktreeOfThatRevisionMadeOnceAndReused() async throws {
        let repo = try await Self.twoCommits()
        defer { try? FileManager.default.removeItem(at: repo) }
        let script = """
            import subprocess; from pathlib import Path; import build
            repo = Path(sys.argv[1]); build_folder = repo / ".build-bench"
            short = subprocess.run(["git", "-C", str(repo), "rev-parse", "--short", "HEAD~1"], capture_output=True, text=True).stdout.strip()
            first = build.checkout_revision(repo, "HEAD~1", build_folder)
            print(first == (build_folder / f"baseline-{short}", short), (first[0] / "f").read_text())
            print(build.checkout_revision(repo, short, build_folder) == first)
            """
        let result = try await BenchHarness.python(script, [repo.path])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output == "True old\nTrue\n", "\(result.output)")
    }

    @Test func aRevisionThatNamesNoCommitEndsTheBench() async throws {
        let repo = try await Self.twoCommits()
        defer { try? FileManager.default.removeItem(at: repo) }
        let script = """
            from pathlib import Path; import build
            build.checkout_revision(Path(sys.argv[1]), "no-such-branch", Path(sys.argv[1]) / ".build-bench")
            print("bench: went on")
            """
        let result = try await BenchHarness.python(script, [repo.path])
        #expect(result.status != 0)
        #expect(result.output.contains("bench: --baseline: no-such-branch names no commit"), "\(result.output)")
        #expect(!result.output.contains("bench: went on"), "\(result.output)")
    }

    /// The report sets each row beside its twin at the baseline: times the events/s, share of the client CPU.
    @Test func eachRowIsComparedWithItsTwinAtTheBaseline() async throws {
        let script = """
            import json, report
            row = lambda variant, rate, cpu: {"mix": "redgreen", "variant": variant, "prefetch": 200, "status": "ok",
                                               "events_per_s": rate, "client_cpu_us_per_event": cpu}
            document = {"baseline": {"revision": "fc6da60", "commit": "fc6da60"}, "runs": [
                row("limit", 30000.0, 8.0), row("responder", 16000.0, 40.0), row("responder@fc6da60", 8000.0, 100.0),
                row("responder-memory", 20000.0, 30.0)]}
            print(json.dumps(report.versus_baseline(document)))
            """
        let result = try await BenchHarness.python(script)
        #expect(result.status == 0, "\(result.output)")
        let rows = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]]
        #expect(rows?.count == 1, "\(result.output)")
        #expect(rows?.first?["variant"] as? String == "responder")
        #expect(rows?.first?["events_per_s_ratio"] as? Double == 2.0)
        #expect(rows?.first?["cpu_ratio"] as? Double == 0.4)
    }
}
