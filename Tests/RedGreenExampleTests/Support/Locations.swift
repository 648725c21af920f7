import Foundation

/// Where the tests find the fixtures and the built `responder` executable.
enum Locations {
    /// The package's Fixtures/red-green folder.
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/red-green")

    /// Every recorded session of Fixtures/red-green (not the goldens), by name.
    static var sessions: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? []
        return names.filter { $0.hasSuffix(".jsonl") && !$0.hasSuffix(".golden.jsonl") }
            .map { String($0.dropLast(".jsonl".count)) }.sorted()
    }

    static func session(_ name: String) -> URL { fixtures.appendingPathComponent("\(name).jsonl") }
    static func golden(_ name: String) -> URL { fixtures.appendingPathComponent("\(name).golden.jsonl") }

    /// The `responder` executable of the same build as the tests: it sits next to the test bundle.
    static var responder: URL {
        #if os(macOS)
            let products = Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }!.bundleURL
                .deletingLastPathComponent()
        #else
            let products = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        #endif
        return products.appendingPathComponent("responder")
    }
}
