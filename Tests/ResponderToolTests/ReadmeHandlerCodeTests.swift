import Foundation
import Testing
import WorkerHarness

/// README's "Writing your own handlers" holds only code the example package compiles: every Swift block of the
/// section occurs in one of Examples/CustomHandlers' files (scripts/example builds and runs them).
@Suite struct ReadmeHandlerCodeTests {
    /// The Swift code blocks between `## Writing your own handlers` and the next section.
    static func swiftBlocks(ofSection title: String, in readme: String) -> [String] {
        guard let start = readme.range(of: "\n## \(title)\n") else { return [] }
        let rest = readme[start.upperBound...]
        let section = rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)]
        return section.components(separatedBy: "```swift\n").dropFirst().map { block in
            String(block.components(separatedBy: "\n```").first ?? "")
        }
    }

    /// `text` with each line's leading spaces removed, so a block may be indented differently from its source.
    static func unindented(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.drop { $0 == " " } }.joined(separator: "\n")
    }

    @Test func everySwiftBlockOfTheSectionIsInTheExamplesSources() throws {
        let readme = try String(contentsOf: Paths.root.appendingPathComponent("README.md"), encoding: .utf8)
        let blocks = Self.swiftBlocks(ofSection: "Writing your own handlers", in: readme)
        #expect(blocks.count >= 4)
        let example = Paths.root.appendingPathComponent("Examples/CustomHandlers")
        let files = try #require(FileManager.default.enumerator(at: example, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }
            .filter { $0.pathExtension == "swift" && !$0.path.contains("/.build/") }
        let sources = try files.map { Self.unindented(try String(contentsOf: $0, encoding: .utf8)) }
        #expect(files.contains { $0.lastPathComponent == "main.swift" })
        for block in blocks {
            #expect(sources.contains { $0.contains(Self.unindented(block)) }, "not in the example's sources:\n\(block)")
        }
    }
}
