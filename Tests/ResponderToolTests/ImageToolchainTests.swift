import BrokerHarness
import Foundation
import Testing
import WorkerHarness

/// The Dockerfile's build stage can build the package: its Swift is no older than any manifest the build loads
/// (the package's own and every resolved dependency's, as that compiler would choose among their version-specific
/// manifests) and no older than the toolchain this suite builds and tests with.
@Suite(.timeLimit(.minutes(10)))
struct ImageToolchainTests {
    /// The Swift version of the build stage's image tag: `swift:6.3.1-bookworm`, maybe with `@sha256:…` after it.
    static func imageSwift() throws -> SwiftVersion {
        let image = try Dockerfile.load().stage("swift:").image
        guard let match = image.wholeMatch(of: /swift:([0-9.]+)-[a-z]+(@sha256:[0-9a-f]{64})?/),
            let version = SwiftVersion(match.output.1)
        else { throw HarnessError("the build stage's image \(image) names no Swift version (swift:X.Y.Z-<distribution>)") }
        return version
    }

    @Test func theImagesSwiftLoadsEveryManifestTheBuildNeeds() throws {
        let image = try Self.imageSwift()
        let dependencies = try ResolvedPackages.folders()
        #expect(dependencies.count >= 8, "the package's eight dependencies and theirs are resolved: \(dependencies)")
        for (identity, folder) in [("responder", Paths.root)] + dependencies {
            let loaded = try PackageManifests(folder: folder).manifest(for: image)
            #expect(
                loaded.toolsVersion <= image,
                "Swift \(image) of the Dockerfile's build stage would load \(identity)'s \(loaded): too old for it")
        }
    }

    @Test func theImagesSwiftIsNoOlderThanTheToolchainOfTheSuite() async throws {
        let result = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), arguments: ["swift", "--version"])
        let match = try #require(result.output.firstMatch(of: /Swift version ([0-9.]+)/), "\(result.output)")
        let suite = try #require(SwiftVersion(match.output.1))
        let image = try Self.imageSwift()
        #expect(image >= suite, "the suite builds and tests with Swift \(suite); the image builds with Swift \(image)")
    }
}
