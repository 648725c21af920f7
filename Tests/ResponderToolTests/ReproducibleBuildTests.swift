import BrokerHarness
import Foundation
import Testing
import WorkerHarness

/// The image builds from the committed Package.resolved, so one commit always builds the same dependencies.
@Suite(.timeLimit(.minutes(10)))
struct ReproducibleBuildTests {
    /// SwiftPM's names for building only what Package.resolved pins, failing when it does not match the manifest.
    static let resolvedOnlyFlags: Set<Substring> = [
        "--force-resolved-versions", "--disable-automatic-resolution", "--only-use-versions-from-resolved-file",
    ]

    @Test func theBuildStageCopiesPackageResolvedAndBuildsFromIt() throws {
        let stage = try Dockerfile.load().stage("swift:")
        let copied = stage.instructions.firstIndex {
            $0.hasPrefix("COPY ") && $0.split(separator: " ").dropFirst().dropLast().contains("Package.resolved")
        }
        let build = stage.instructions.firstIndex { $0.hasPrefix("RUN swift build -c release ") }
        let copy = try #require(copied, "the build stage copies Package.resolved")
        let release = try #require(build, "the build stage runs swift build -c release")
        #expect(copy < release, "Package.resolved is in place before the build")
        let words = stage.instructions[release].components(separatedBy: "&&")[0].split(separator: " ")
        #expect(words.contains { Self.resolvedOnlyFlags.contains($0) }, "\(stage.instructions[release])")
    }

    /// One pin of Package.resolved.
    struct Pin: Decodable {
        struct State: Decodable {
            let revision: String
            let version: String?
        }
        let identity: String
        let location: String
        let state: State
    }

    private struct Resolved: Decodable { let pins: [Pin] }

    /// A repository URL as SwiftPM identifies it: without `.git`, case aside.
    static func identity(_ location: String) -> String {
        let lowered = location.lowercased()
        return lowered.hasSuffix(".git") ? String(lowered.dropLast(4)) : lowered
    }

    @Test func packageResolvedIsTrackedAndPinsEveryDependency() async throws {
        let tracked = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            arguments: ["git", "-C", Paths.root.path, "ls-files", "--error-unmatch", "Package.resolved"])
        #expect(tracked.status == 0, "Package.resolved is committed: \(tracked.output)")

        let data = try Data(contentsOf: Paths.root.appendingPathComponent("Package.resolved"))
        let pins = try JSONDecoder().decode(Resolved.self, from: data).pins
        let manifest = try String(contentsOf: Paths.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let dependencies = manifest.matches(of: /\.package\(url: "([^"]+)", from: "([0-9.]+)"/).map {
            (url: String($0.output.1), from: String($0.output.2))
        }
        #expect(dependencies.count >= 12, "Package.swift's dependencies are all read: \(dependencies)")
        #expect(dependencies.count == manifest.matches(of: /\.package\(/).count, "every dependency is a from: URL")
        for dependency in dependencies {
            guard let pin = pins.first(where: { Self.identity($0.location) == Self.identity(dependency.url) }) else {
                Issue.record("\(dependency.url) is not pinned in Package.resolved")
                continue
            }
            #expect(pin.state.revision.wholeMatch(of: /[0-9a-f]{40}/) != nil, "\(pin.identity) is pinned to a commit")
            // Compared as dotted versions: from: allows that version up to the next major one.
            let minimum = try #require(SwiftVersion(dependency.from))
            let pinned = try #require(pin.state.version.flatMap { SwiftVersion($0) }, "\(pin.identity) has a version")
            #expect(
                pinned >= minimum && pinned.major == minimum.major,
                "\(pin.identity) is pinned at \(pinned), outside from: \(minimum)")
        }
    }
}
