import Foundation

/// A readable, line-oriented comparison of replay outputs with a golden file.
public enum LineDiff {
    /// How `lines` differ from the golden file at `path` (its non-empty lines), or nil when they are the same.
    public static func describe(_ lines: [String], againstGoldenAt path: String) throws -> String? {
        let golden = try String(contentsOfFile: path, encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        return describe(expected: golden, actual: lines, expectedName: path, actualName: "outputs")
    }

    /// A description of how `actual` differs from `expected`, or nil when they are equal.
    ///
    /// Each run of changed lines is headed by its line numbers in both files; removed golden lines are marked `-`,
    /// added output lines `+`. At most `limit` changed lines are shown, then how many more there are.
    public static func describe(
        expected: [String], actual: [String], expectedName: String = "expected", actualName: String = "actual",
        limit: Int = 40
    ) -> String? {
        guard expected != actual else { return nil }
        let difference = actual.difference(from: expected)
        var removed: Set<Int> = []
        var inserted: Set<Int> = []
        for change in difference {
            switch change {
            case .remove(let offset, _, _): removed.insert(offset)
            case .insert(let offset, _, _): inserted.insert(offset)
            }
        }
        var lines = [
            "--- \(expectedName) (\(expected.count) lines)", "+++ \(actualName) (\(actual.count) lines)",
        ]
        var shown = 0
        var inChange = false
        var (i, j) = (0, 0)
        while i < expected.count || j < actual.count {
            let change: String
            if removed.contains(i), i < expected.count {
                change = "- \(expected[i])"
            } else if inserted.contains(j), j < actual.count {
                change = "+ \(actual[j])"
            } else {
                inChange = false
                i += 1
                j += 1
                continue
            }
            if shown < limit {
                if !inChange { lines.append("@@ \(expectedName) line \(i + 1), \(actualName) line \(j + 1) @@") }
                lines.append(change)
            }
            shown += 1
            inChange = true
            if change.hasPrefix("-") { i += 1 } else { j += 1 }
        }
        if shown > limit { lines.append("… and \(shown - limit) more changed lines") }
        return lines.joined(separator: "\n")
    }
}
