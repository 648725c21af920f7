import BrokerHarness
import Foundation
import Testing
import WorkerHarness

/// The package's dependencies resolve from Package.swift's `from:` versions, in a clone and in the image alike:
/// Package.resolved stays out of git, since a checkout's pins may name revisions only its own machine has (an
/// offline copy of a dependency is not the upstream repository), which a build anywhere else cannot check out.
@Suite(.timeLimit(.minutes(10)))
struct DependencyResolutionTests {
    /// SwiftPM's names for building only what Package.resolved pins, failing when it does not match the manifest.
    static let resolvedOnlyFlags: Set<Substring> = [
        "--force-resolved-versions", "--disable-automatic-resolution", "--only-use-versions-from-resolved-file",
    ]

    @Test func theBuildStageResolvesFromPackageSwift() throws {
        let stage = try Dockerfile.load().stage("swift:")
        let copied = stage.arguments(of: "COPY").flatMap { $0.split(separator: " ").dropLast() }
        #expect(copied.contains("Package.swift"), "the build stage copies Package.swift: \(copied)")
        #expect(!copied.contains("Package.resolved"), "the build stage copies no Package.resolved: \(copied)")
        let build = try #require(
            stage.instructions.first { $0.hasPrefix("RUN swift build -c release ") },
            "the build stage runs swift build -c release")
        let words = build.components(separatedBy: "&&")[0].split(separator: " ")
        #expect(!words.contains { Self.resolvedOnlyFlags.contains($0) }, "\(build)")
    }

    @Test func packageResolvedIsNeitherTrackedNorTrackable() async throws {
        let git = URL(fileURLWithPath: "/usr/bin/env")
        let tracked = try await ChildProcess.run(
            git, arguments: ["git", "-C", Paths.root.path, "ls-files", "--error-unmatch", "Package.resolved"])
        #expect(tracked.status != 0, "Package.resolved is not in git: \(tracked.output)")
        // The repository's own .gitignore, not a machine's excludes file, must keep it out of every clone's commits.
        let ignored = try await ChildProcess.run(
            git,
            arguments: [
                "git", "-C", Paths.root.path, "-c", "core.excludesFile=/dev/null", "check-ignore", "--no-index",
                "Package.resolved",
            ])
        #expect(ignored.status == 0, ".gitignore keeps Package.resolved out: \(ignored.output)")
    }

    /// What pins the versions instead: every dependency names the release it needs at least.
    @Test func everyDependencyIsAFromVersion() throws {
        let manifest = try String(contentsOf: Paths.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let dependencies = manifest.matches(of: /\.package\(url: "[^"]+", from: "[0-9]+\.[0-9]+\.[0-9]+"/)
        #expect(dependencies.count >= 12, "Package.swift's dependencies are all read: \(dependencies.count)")
        #expect(dependencies.count == manifest.matches(of: /\.package\(/).count, "every dependency is a from: URL")
    }
}
