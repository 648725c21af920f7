import BrokerHarness
import Foundation
import Testing
import WorkerHarness

/// The Dockerfile's runtime stage has every shared library the release `responder` links, and installs nothing
/// else but the tools listed here with their reasons. The binary is built by the build stage's own `swift build`
/// command (read from the Dockerfile) into `.build-release`; scripts/test builds it before the suite, so here
/// the build is only SwiftPM finding it up to date.
@Suite(.timeLimit(.minutes(30)))
struct ImageLibrariesTests {
    /// Packages the runtime stage installs that own no library the binary links, and why the image needs each.
    static let runtimeTools = [
        "ca-certificates":
            "an amqps:// broker is verified against /etc/ssl/certs/ca-certificates.crt unless --ca-file names another "
            + "bundle (TLSConfiguration.systemCABundlePath: rabbitmq-c does not read the system store by itself)"
    ]

    /// The release `responder`, built as the build stage builds it.
    static func releaseBinary() async throws -> URL {
        let commands = try Dockerfile.load().stage("swift:").arguments(of: "RUN").flatMap { $0.components(separatedBy: "&&") }
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("swift build ") }
        guard commands.count == 1, let command = commands.first else {
            throw HarnessError("the build stage runs \(commands.count) swift build commands, not one: \(commands)")
        }
        let arguments = command.split(separator: " ").dropFirst().map(String.init) + [
            "--package-path", Paths.root.path, "--scratch-path", Paths.root.appendingPathComponent(".build-release").path,
        ]
        let swift = URL(fileURLWithPath: "/usr/bin/env")
        let build = try await ChildProcess.run(swift, arguments: ["swift"] + arguments)
        guard build.status == 0 else { throw HarnessError("\(command) failed: \(build.output)") }
        let binPath = try await ChildProcess.run(swift, arguments: ["swift"] + arguments + ["--show-bin-path"])
        // SwiftPM's warnings share the output; the path is the one line that is an absolute path.
        guard binPath.status == 0, let folder = binPath.output.split(separator: "\n").last(where: { $0.hasPrefix("/") }) else {
            throw HarnessError("--show-bin-path failed: \(binPath.output)")
        }
        return URL(fileURLWithPath: String(folder)).appendingPathComponent("responder")
    }

    /// The files of the shared libraries `binary` loads, as `ldd` resolves them on this machine (the kernel's vDSO
    /// is no file); throws for a library `ldd` cannot find.
    static func linkedLibraries(_ binary: URL) async throws -> [String] {
        let ldd = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/ldd"), arguments: [binary.path])
        guard ldd.status == 0 else { throw HarnessError("ldd \(binary.path): \(ldd.output)") }
        let lines = ldd.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let missing = lines.filter { $0.hasSuffix("not found") }
        guard missing.isEmpty else { throw HarnessError("ldd finds no \(missing)") }
        return lines.compactMap { line in
            let file = line.components(separatedBy: "=> ").last?.components(separatedBy: " (").first ?? ""
            return file.hasPrefix("/") ? file : nil
        }
    }

    @Test func theRuntimeStageInstallsWhatTheBinaryLinksAndNothingElse() async throws {
        let binary = try await Self.releaseBinary()
        var owners: [String: [String]] = [:]
        for library in try await Self.linkedLibraries(binary) {
            owners[try await DebianPackages.owner(of: library), default: []].append(library)
        }
        #expect(owners["librabbitmq4"] != nil && owners["libsqlite3-0"] != nil, "\(owners)")

        // debian:bookworm-slim is `debootstrap --variant=minbase` (debuerreotype's build of the image): the
        // packages of priority `required` and apt, with their dependencies, less documentation, man pages and
        // locales, never libraries.
        let debian = try await DebianPackages.load()
        let slim = try debian.closure(of: try await debian.requiredInTheArchive().union(["apt"]))
        let runtime = try Dockerfile.load().stage("debian:").aptInstall()
        let image = try debian.closure(of: runtime).union(slim)
        for (package, libraries) in owners.sorted(by: { $0.key < $1.key }) {
            #expect(image.contains(package), "the binary links \(libraries) of \(package), which the runtime image lacks")
        }
        for package in runtime {
            #expect(!slim.contains(package), "\(package) is part of debian:bookworm-slim already")
            #expect(
                owners[package] != nil || Self.runtimeTools[package] != nil,
                "the runtime stage installs \(package), but the binary links none of its libraries")
        }
        for tool in Self.runtimeTools.keys {
            #expect(runtime.contains(tool), "\(tool) is listed as a runtime tool the stage no longer installs")
        }
    }
}
