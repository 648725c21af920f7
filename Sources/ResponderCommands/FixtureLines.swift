import Foundation
import Responder

/// Counting a fixture's lines up front lets the progress bar show how far along a publish is.
enum FixtureLines {
    static func count(_ url: URL) throws -> Int {
        var reader = try FixtureReader(url: url)
        var count = 0
        while let line = try reader.nextLine() {
            if !line.isEmpty { count += 1 }
        }
        return count
    }
}
