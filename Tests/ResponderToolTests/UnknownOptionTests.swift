import Testing
import WorkerHarness

/// An option a command does not have: a near spelling gets the parser's own suggestion, and another word gets the
/// command's option whose help mentions it, so `--in-memory` leads to `--state :memory:`.
@Suite struct UnknownOptionTests {
    @Test func anOptionNamedAfterWhatItWantsLeadsToTheOptionThatDoesIt() async throws {
        let result = try await Tool.run(["replay", "--in-memory", "session.jsonl"])
        #expect(result.status == 64)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.prefix(2) == ["Error: Unknown option '--in-memory'", "Did you mean --state? Its help mentions \"memory\"."], "\(result.stderr)")
    }

    @Test func aNearSpellingKeepsTheParsersSuggestionAlone() async throws {
        let result = try await Tool.run(["run", "--prefech", "3"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: Unknown option '--prefech'. Did you mean '--prefetch'?\nUsage:"), "\(result.stderr)")
    }

    @Test func aWordNoOptionMentionsGetsNoGuess() async throws {
        let result = try await Tool.run(["replay", "--zzzz", "session.jsonl"])
        #expect(result.status == 64)
        #expect(!result.stderr.contains("Did you mean"), "\(result.stderr)")
    }
}
