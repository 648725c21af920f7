import Responder
import Testing

@Suite struct LineDiffTests {
    @Test func equalLinesHaveNoDiff() {
        #expect(LineDiff.describe(expected: ["a", "b"], actual: ["a", "b"]) == nil)
        #expect(LineDiff.describe(expected: [], actual: []) == nil)
    }

    @Test func aChangedLineIsShownWithItsLineNumbers() {
        let diff = LineDiff.describe(
            expected: ["a", "b", "c"], actual: ["a", "B", "c"], expectedName: "golden.jsonl", actualName: "outputs")
        #expect(
            diff == """
                --- golden.jsonl (3 lines)
                +++ outputs (3 lines)
                @@ golden.jsonl line 2, outputs line 2 @@
                - b
                + B
                """)
    }

    @Test func missingAndExtraLinesAreShown() {
        let diff = LineDiff.describe(expected: ["a", "b", "c"], actual: ["a", "c", "d"])
        #expect(
            diff == """
                --- expected (3 lines)
                +++ actual (3 lines)
                @@ expected line 2, actual line 2 @@
                - b
                @@ expected line 4, actual line 3 @@
                + d
                """)
    }

    @Test func longDiffsAreCut() throws {
        let diff = try #require(
            LineDiff.describe(expected: [], actual: (1...50).map(String.init), limit: 10))
        #expect(diff.split(separator: "\n").filter { $0.hasPrefix("+ ") }.count == 10)
        #expect(diff.hasSuffix("… and 40 more changed lines"))
    }
}
