import BrokerHarness
import Foundation
import WorkerHarness

/// A package folder's manifests, `Package.swift` and any `Package@swift-X[.Y[.Z]].swift`, and which one a compiler
/// of a given version loads. A package "needs" a compiler only through the manifest that compiler would load: a
/// `Package.swift` at tools version 6.2 beside a `Package@swift-6.0.swift` at 6.0 still builds with Swift 6.1.
struct PackageManifests {
    /// A manifest file and the tools version its first line declares.
    struct Manifest: CustomStringConvertible {
        let file: String
        let toolsVersion: SwiftVersion
        var description: String { "\(file) (swift-tools-version \(toolsVersion))" }
    }

    let folder: URL
    let regular: Manifest
    /// The version-specific manifests by the version in their name.
    let versionSpecific: [(named: SwiftVersion, manifest: Manifest)]

    init(folder: URL) throws {
        self.folder = folder
        func manifest(_ file: String) throws -> Manifest {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            guard let first = text.split(separator: "\n", maxSplits: 1).first,
                let version = SwiftVersion(toolsVersionLine: first)
            else { throw HarnessError("\(folder.path)/\(file) declares no swift-tools-version on its first line") }
            return Manifest(file: file, toolsVersion: version)
        }
        regular = try manifest("Package.swift")
        versionSpecific = try FileManager.default.contentsOfDirectory(atPath: folder.path).compactMap { file in
            guard let match = file.wholeMatch(of: /Package@swift-([0-9.]+)\.swift/),
                let named = SwiftVersion(match.output.1)
            else { return nil }
            return (named, try manifest(file))
        }
    }

    /// The manifest a compiler of version `compiler` loads, chosen as SwiftPM's `ManifestLoader.findManifest` does:
    /// a manifest named for the compiler's exact version (most specific first); else the newest version-specific
    /// manifest named for a version at most the compiler's, when it declares a newer tools version than
    /// `Package.swift` or when `Package.swift` declares one newer than the compiler; else `Package.swift`.
    func manifest(for compiler: SwiftVersion) -> Manifest {
        for name in compiler.versionSpecificManifestNames {
            if let exact = versionSpecific.first(where: { $0.manifest.file == name }) { return exact.manifest }
        }
        guard let closest = versionSpecific.filter({ $0.named <= compiler }).max(by: { $0.named < $1.named }) else {
            return regular
        }
        if closest.manifest.toolsVersion > regular.toolsVersion || regular.toolsVersion > compiler {
            return closest.manifest
        }
        return regular
    }
}
