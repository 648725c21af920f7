import BrokerHarness
import Foundation
import WorkerHarness

/// The packages this build resolved, read from SwiftPM's `workspace-state.json` in the scratch folder the tests
/// were built in (found above the test binary, so `--scratch-path` builds work too).
enum ResolvedPackages {
    /// The scratch folder of the running test binary's build.
    static func scratchFolder() throws -> URL {
        var folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("workspace-state.json").path) {
                return folder
            }
            folder = folder.deletingLastPathComponent()
        }
        throw HarnessError("no workspace-state.json above the test binary: build the tests with `swift build --build-tests`")
    }

    private struct WorkspaceState: Decodable {
        struct Dependency: Decodable {
            struct Reference: Decodable { let identity: String }
            struct State: Decodable { let name: String }
            let packageRef: Reference
            let state: State
            let subpath: String
        }
        struct Object: Decodable { let dependencies: [Dependency] }
        let object: Object
    }

    /// Each resolved dependency's identity and the folder SwiftPM loads it from.
    static func folders() throws -> [(identity: String, folder: URL)] {
        let scratch = try scratchFolder()
        let data = try Data(contentsOf: scratch.appendingPathComponent("workspace-state.json"))
        return try JSONDecoder().decode(WorkspaceState.self, from: data).object.dependencies.map { dependency in
            // Every dependency of this package is a git URL; an edited or local package would live elsewhere, and
            // is refused rather than silently left unchecked.
            guard dependency.state.name == "sourceControlCheckout" else {
                throw HarnessError("\(dependency.packageRef.identity) is resolved as \(dependency.state.name), not a checkout")
            }
            return (dependency.packageRef.identity, scratch.appendingPathComponent("checkouts/\(dependency.subpath)"))
        }
    }
}
