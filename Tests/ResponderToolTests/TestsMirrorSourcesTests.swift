import BrokerHarness
import Foundation
import Testing

/// `Tests/` mirrors `Sources/`: each suite folder is named for the module it tests, `…Tests` without a broker and
/// `…BrokerTests` with one, so a reader finds a module's tests by its name and a new folder cannot drift.
@Suite struct TestsMirrorSourcesTests {
    /// Folders of `Tests/` that test no one module, and why.
    static let beside: [String: String] = [
        "ReliabilityTests": "the whole system: crashes at every step, faults and fleets, through `responder`",
        "Fuzz": "the intake fuzzer and its regression inputs",
    ]

    static func folders(_ name: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: Paths.root.appendingPathComponent(name).path)
            .filter { !$0.hasPrefix(".") }.sorted()
    }

    @Test func everySuiteFolderNamesASourcesModuleAndEveryOtherIsAHarness() throws {
        let modules = Set(try Self.folders("Sources"))
        var strays: [String] = []
        for folder in try Self.folders("Tests") where Self.beside[folder] == nil && !folder.hasSuffix("Harness") {
            let module = folder.replacing(/(Broker)?Tests$/, with: "")
            if module == folder || !modules.contains(module) { strays.append(folder) }
        }
        #expect(strays.isEmpty, "Tests/ folders naming no Sources module (nor a harness): \(strays)")
    }
}
