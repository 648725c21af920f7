import BrokerHarness
import Foundation

/// The recorded sessions and the `responder` executable of the tests' own build.
extension Paths {
    /// The package's Fixtures/red-green folder.
    public static let fixtures = root.appendingPathComponent("Fixtures/red-green")

    /// Every recorded session of Fixtures/red-green (not the goldens), by name.
    public static var sessions: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? []
        return names.filter { $0.hasSuffix(".jsonl") && !$0.hasSuffix(".golden.jsonl") }
            .map { String($0.dropLast(".jsonl".count)) }.sorted()
    }

    /// A recorded RedGreen session and its golden outputs, by name.
    public static func session(_ name: String) -> URL { fixtures.appendingPathComponent("\(name).jsonl") }
    public static func golden(_ name: String) -> URL { fixtures.appendingPathComponent("\(name).golden.jsonl") }

    /// The `responder` executable of the same build as the tests: it sits next to the test binary.
    public static var responder: URL { executable("responder") }

    /// `responder` with a handler that schedules follow-ups (Tests/FollowUpResponderHarness), of the same build.
    public static var followUpResponder: URL { executable("FollowUpResponder") }

    private static func executable(_ name: String) -> URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent(name)
    }
}
