import BrokerHarness
import Foundation
import Testing
import WorkerHarness

/// `PackageManifests` chooses the manifest a compiler loads as SwiftPM does: checked on made-up packages, against
/// the real SwiftPM of this machine's toolchain, and for the two shapes the image's toolchain check met in the
/// resolved dependencies.
@Suite(.timeLimit(.minutes(10)))
struct PackageManifestsTests {
    /// A package folder with `manifests` (file name and declared tools version), each naming the package after
    /// its file so that `swift package describe` tells which one SwiftPM loaded.
    static func package(_ manifests: [(file: String, tools: String)]) throws -> URL {
        let folder = try Paths.temporaryFolder("manifests")
        for (file, tools) in manifests {
            let name = file.replacingOccurrences(of: ".swift", with: "")
            let text = "// swift-tools-version:\(tools)\nimport PackageDescription\nlet package = Package(name: \"\(name)\")\n"
            try text.write(to: folder.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
        return folder
    }

    static func suiteSwift() async throws -> SwiftVersion {
        let result = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), arguments: ["swift", "--version"])
        let match = try #require(result.output.firstMatch(of: /Swift version ([0-9.]+)/), "\(result.output)")
        return try #require(SwiftVersion(match.output.1))
    }

    /// Shapes where the choice matters: a newer `Package.swift` with an older fallback, one with a newer
    /// version-specific manifest (the pre-2017 convention), and a `Package.swift` too new for any compiler.
    static let shapes: [[(file: String, tools: String)]] = [
        [("Package.swift", "99.0"), ("Package@swift-6.0.swift", "6.0")],
        [("Package.swift", "5.9"), ("Package@swift-6.0.swift", "6.0")],
        [("Package.swift", "6.0"), ("Package@swift-5.9.swift", "5.9")],
        [("Package.swift", "99.0")],
    ]

    @Test(arguments: shapes.indices)
    func theChoiceIsTheOneThisMachinesSwiftPMMakes(shape: Int) async throws {
        let folder = try Self.package(Self.shapes[shape])
        defer { try? FileManager.default.removeItem(at: folder) }
        let compiler = try await Self.suiteSwift()
        let predicted = try PackageManifests(folder: folder).manifest(for: compiler)
        let described = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), arguments: ["swift", "package", "--package-path", folder.path, "describe"])
        if predicted.toolsVersion <= compiler {
            #expect(described.status == 0, "\(described.output)")
            #expect(described.output.contains("Name: \(predicted.file.replacingOccurrences(of: ".swift", with: ""))\n"),
                "predicted \(predicted); SwiftPM said \(described.output)")
        } else {
            #expect(described.status != 0, "predicted that \(predicted) is too new; SwiftPM said \(described.output)")
        }
    }

    /// swift-collections 1.6.0 (`Package.swift` at 6.2, `Package@swift-6.0.swift` at 6.0) still loads on Swift
    /// 6.1; hummingbird 2.28.1 (`Package.swift` at 6.2 alone) does not.
    @Test func aSwift61CompilerFallsBackOnlyWhereAManifestForItExists() throws {
        let swift61 = try #require(SwiftVersion("6.1.2"))
        let collections = try Self.package([("Package.swift", "6.2"), ("Package@swift-6.0.swift", "6.0")])
        let hummingbird = try Self.package([("Package.swift", "6.2")])
        let exact = try Self.package([("Package.swift", "6.2"), ("Package@swift-6.1.swift", "6.1"), ("Package@swift-6.swift", "6.0")])
        defer { for folder in [collections, hummingbird, exact] { try? FileManager.default.removeItem(at: folder) } }
        #expect(try PackageManifests(folder: collections).manifest(for: swift61).file == "Package@swift-6.0.swift")
        let loaded = try PackageManifests(folder: hummingbird).manifest(for: swift61)
        #expect(loaded.file == "Package.swift" && loaded.toolsVersion > swift61)
        #expect(try PackageManifests(folder: exact).manifest(for: swift61).file == "Package@swift-6.1.swift")
        #expect(try PackageManifests(folder: collections).manifest(for: #require(SwiftVersion("6.3.1"))).file == "Package.swift")
    }
}
