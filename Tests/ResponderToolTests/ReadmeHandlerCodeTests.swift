import BrokerHarness
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
        return swiftBlocks(in: String(rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)]))
    }

    /// The Swift code blocks of `text`.
    static func swiftBlocks(in text: String) -> [String] {
        text.components(separatedBy: "```swift\n").dropFirst().map { block in
            String(block.components(separatedBy: "\n```").first ?? "")
        }
    }

    /// `text` with each line's leading spaces removed, so a block may be indented differently from its source.
    static func unindented(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.drop { $0 == " " } }.joined(separator: "\n")
    }

    /// The example package's Swift files (its manifest included), each unindented.
    static func exampleSources() throws -> [String] {
        let example = Paths.root.appendingPathComponent("Examples/CustomHandlers")
        let files = try #require(FileManager.default.enumerator(at: example, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }
            .filter { $0.pathExtension == "swift" && !$0.path.contains("/.build/") }
        #expect(files.contains { $0.lastPathComponent == "main.swift" })
        #expect(files.contains { $0.lastPathComponent == "Package.swift" })
        return try files.map { Self.unindented(try String(contentsOf: $0, encoding: .utf8)) }
    }

    @Test func everySwiftBlockOfTheSectionIsInTheExamplesSources() throws {
        let readme = try String(contentsOf: Paths.root.appendingPathComponent("README.md"), encoding: .utf8)
        let blocks = Self.swiftBlocks(ofSection: "Writing your own handlers", in: readme)
        #expect(blocks.count >= 4)
        let sources = try Self.exampleSources()
        for block in blocks {
            #expect(sources.contains { $0.contains(Self.unindented(block)) }, "not in the example's sources:\n\(block)")
        }
    }

    /// The DocC article a team follows to write its own package, the dependency line included (a `.package(path:)`
    /// without the name fails in a package of one's own): every Swift block is one the example builds with.
    @Test func everySwiftBlockOfTheHandlersArticleIsInTheExamplesSources() throws {
        let article = try String(
            contentsOf: Paths.root.appendingPathComponent("Sources/Responder/Responder.docc/WritingAndTestingHandlers.md"),
            encoding: .utf8)
        let blocks = Self.swiftBlocks(in: article)
        #expect(blocks.contains { $0.contains(".package(name: \"responder\"") })
        let sources = try Self.exampleSources()
        for block in blocks {
            #expect(sources.contains { $0.contains(Self.unindented(block)) }, "not in the example's sources:\n\(block)")
        }
    }

    /// The testing product's article.
    static func testingArticle() throws -> String {
        try String(
            contentsOf: Paths.root.appendingPathComponent(
                "Sources/ResponderTesting/ResponderTesting.docc/TestingYourHandlers.md"),
            encoding: .utf8)
    }

    /// The testing product's article shows the example's own tests: every Swift block is in them or its manifest.
    @Test func everySwiftBlockOfTheTestingArticleIsInTheExamplesSources() throws {
        let blocks = Self.swiftBlocks(in: try Self.testingArticle())
        #expect(blocks.count >= 5)
        let sources = try Self.exampleSources()
        for block in blocks {
            #expect(sources.contains { $0.contains(Self.unindented(block)) }, "not in the example's sources:\n\(block)")
        }
    }

    /// The testing article shows the example's test files whole, not snippets that use what they never declare:
    /// the article's blocks found in one of the files, put together in the article's order, are that file, which
    /// the example compiles and runs (scripts/example).
    @Test func theTestingArticleShowsTheExamplesTestFilesWhole() throws {
        let blocks = Self.swiftBlocks(in: try Self.testingArticle()).map(Self.unindented)
        let tests = Paths.root.appendingPathComponent("Examples/CustomHandlers/Tests")
        let files = try #require(FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(files.count == 2)
        for file in files {
            let text = Self.unindented(try String(contentsOf: file, encoding: .utf8))
                .trimmingCharacters(in: .newlines)
            let shown = blocks.filter { text.contains($0) }.joined(separator: "\n\n")
            #expect(shown == text, "the article's blocks do not make up \(file.lastPathComponent); they make:\n\(shown)")
        }
    }
}
