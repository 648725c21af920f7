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
}
