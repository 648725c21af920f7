import BrokerHarness
import Foundation
import Testing

/// The targets under `Tests/` that Package.swift declares as ordinary targets (the harnesses, the fuzzing entry
/// and the follow-up executable) import no module `@testable`: `swift build -c release` compiles them, and a
/// release build compiles no module for testing, so one such import fails the package's release build.
@Suite struct HarnessTestabilityTests {
    /// The folders of the targets whose `path:` Package.swift names under Tests/ (test targets use the default path).
    static func ordinaryTargetFolders() throws -> [String] {
        let manifest = try String(contentsOf: Paths.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        return manifest.matches(of: /path: "(Tests\/[^"]+)"/).map { String($0.output.1) }
    }

    @Test func noOrdinaryTargetImportsTestable() throws {
        let folders = try Self.ordinaryTargetFolders()
        #expect(folders.count >= 6, "the harnesses' paths are all read: \(folders)")
        var testable: [String] = []
        for folder in folders {
            let root = Paths.root.appendingPathComponent(folder)
            let files = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
            for file in files {
                let text = try String(contentsOf: file, encoding: .utf8)
                for line in text.split(separator: "\n") where line.hasPrefix("@testable import ") {
                    testable.append("\(folder)/\(file.lastPathComponent): \(line)")
                }
            }
        }
        #expect(testable.isEmpty, "ordinary targets a release build compiles without testability: \(testable)")
    }
}
