import BrokerHarness
import Foundation
import Testing
import WorkerHarness

/// The README's first screen (the text before its first code block) names what a newcomer needs, as this package
/// and this machine have it: the oldest Swift the manifest allows, the Swift the image builds with, the RabbitMQ
/// the suites run on and the plugin ordered mode needs.
@Suite(.timeLimit(.minutes(10)))
struct ReadmeRequirementsTests {
    static func firstScreen() throws -> String {
        let readme = try String(contentsOf: Paths.root.appendingPathComponent("README.md"), encoding: .utf8)
        return readme.components(separatedBy: "```")[0].replacingOccurrences(of: "\n", with: " ")
    }

    @Test func itNamesTheSwiftTheManifestNeedsAndTheImagesSwift() throws {
        let manifest = try String(contentsOf: Paths.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let tools = try #require(manifest.firstMatch(of: /^\/\/ swift-tools-version:([0-9.]+)/)?.output.1)
        let screen = try Self.firstScreen()
        #expect(screen.contains("Swift \(tools) or later"), "the tools version is \(tools)")
        let image = try ImageToolchainTests.imageSwift()
        #expect(screen.contains("\(image)"), "the image builds with Swift \(image)")
    }

    @Test func itNamesTheRabbitMQTheSuitesRunOnAndOrderedModesPlugin() async throws {
        // scripts/broker runs Debian's rabbitmq-server; its Debian version is the upstream one, a dash, the build.
        let installed = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), arguments: ["dpkg-query", "-W", "-f", "${Version}", "rabbitmq-server"])
        #expect(installed.status == 0, "rabbitmq-server is installed from Debian's packages: \(installed.output)")
        let version = try #require(installed.output.firstMatch(of: /^([0-9]+\.[0-9]+\.[0-9]+)/)?.output.1)
        let screen = try Self.firstScreen()
        #expect(screen.contains("RabbitMQ"))
        #expect(screen.contains(" \(version)"), "the suites run on RabbitMQ \(version)")
        #expect(screen.contains("`rabbitmq_consistent_hash_exchange`"))
    }
}
