import BrokerHarness
import Foundation
import Testing
import WorkerHarness

/// scripts/bench builds the responder before it measures it; a build that fails must fail the bench, not leave a
/// report of the other variants' rows that reads as a whole run.
@Suite struct BenchBuildTests {
    /// The harness's build step (Benchmarks/harness/build.py) on a checkout whose Dockerfile's release build fails.
    @Test func aFailedReleaseBuildFailsTheBench() async throws {
        let repo = try Paths.temporaryFolder("bench-build")
        defer { try? FileManager.default.removeItem(at: repo) }
        try "// names ResponderTool, as the project's manifest does\n".write(
            to: repo.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        // No package there: swift fails at once, as a build that does not link would after a while.
        try "RUN swift build -c release --package-path /nonexistent-package\n".write(
            to: repo.appendingPathComponent("Dockerfile"), atomically: true, encoding: .utf8)
        let script = """
            from pathlib import Path; import build
            build.build_responder(Path(sys.argv[1]), Path(sys.argv[1])); print("bench: went on")
            """
        let result = try await BenchHarness.python(script, [repo.path])
        #expect(result.status != 0, "\(result.output)")
        #expect(result.output.contains("bench: the responder build failed"), "\(result.output)")
        #expect(!result.output.contains("bench: went on"), "\(result.output)")
    }

    /// Replay's instructions per event need valgrind: without it the bench stops before it measures anything,
    /// rather than reporting replay rows without their instructions.
    @Test func aBenchWithoutValgrindFails() async throws {
        let empty = try Paths.temporaryFolder("bench-no-valgrind")
        defer { try? FileManager.default.removeItem(at: empty) }
        let script = """
            import os, instructions
            os.environ["PATH"] = sys.argv[1]
            instructions.require(); print("bench: went on")
            """
        let result = try await BenchHarness.python(script, [empty.path])
        #expect(result.status != 0, "\(result.output)")
        #expect(result.output.contains("valgrind"), "\(result.output)")
        #expect(!result.output.contains("bench: went on"), "\(result.output)")
    }

    /// A callgrind run that does not end in a count of its own gives no count, and says why (runs.py then reports the
    /// replay row failed, which fails the bench): never a figure from what it left behind, never an exception that
    /// ends the bench with the rows measured so far unwritten, never a hang.
    @Test(arguments: [
        ("echo 'valgrind: crashed' >&2; exit 1", "{}", "failed: callgrind exited with 1: "),
        ("exit 0", "{}", "failed: callgrind exited with 0 but left no output"),
        ("echo 'totals: many' > \"$out\"", "{}", "failed: an unreadable count in "),
        ("echo 'events: Ir' > \"$out\"", "{}", "failed: no totals in "),
        ("exec sleep 30", "{}", "failed: callgrind did not finish within 1 s"),
        ("echo 'totals: 100' > \"$out\"", "", "failed: no lines to replay in "),
    ])
    func aCallgrindRunWithoutACountGivesNone(valgrindBody: String, fixture: String, expected: String) async throws {
        let folder = try Paths.temporaryFolder("bench-callgrind")
        defer { try? FileManager.default.removeItem(at: folder) }
        let valgrind = folder.appendingPathComponent("valgrind")
        let script = """
            #!/bin/sh
            for argument in "$@"; do case "$argument" in --callgrind-out-file=*) out="${argument#*=}";; esac; done
            \(valgrindBody)

            """
        try script.write(to: valgrind, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: valgrind.path)
        let measure = """
            import os; from pathlib import Path; import instructions
            os.environ["PATH"] = sys.argv[1] + ":" + os.environ["PATH"]
            folder = Path(sys.argv[1]); (folder / "fixture.jsonl").write_text(sys.argv[2])
            callgrind = object.__new__(instructions.Callgrind)
            callgrind.binary, callgrind.shim, callgrind.timeout = folder / "responder", folder / "shim.so", 1
            try:
                print(callgrind.per_event(folder / "fixture.jsonl", "memory", folder))
            except instructions.MeasureFailed as failure:
                print(f"failed: {failure}")
            """
        let result = try await BenchHarness.python(measure, [folder.path, fixture.isEmpty ? "" : fixture + "\n"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.hasPrefix(expected), "\(result.output)")
    }
}
