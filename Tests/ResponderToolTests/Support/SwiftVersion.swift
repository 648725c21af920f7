/// A Swift version as toolchains, image tags and `swift-tools-version` lines write it: `6`, `6.2` or `6.3.1`, the
/// missing parts read as 0 (SwiftPM reads `swift-tools-version:6.2` as 6.2.0).
struct SwiftVersion: Comparable, CustomStringConvertible, Sendable {
    let major: Int
    let minor: Int
    let patch: Int
    /// How many parts the text had, for the version-specific manifest names (`Package@swift-6.2.swift`).
    let written: Int

    init?(_ text: some StringProtocol) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
        guard (1...3).contains(parts.count), parts.allSatisfy({ ($0 ?? -1) >= 0 }) else { return nil }
        let numbers = parts.compactMap { $0 } + [0, 0]
        (major, minor, patch, written) = (numbers[0], numbers[1], numbers[2], parts.count)
    }

    /// The version a manifest's first line declares (`// swift-tools-version:6.2`, spaces and a `;` suffix
    /// allowed), or nil when it declares none.
    init?(toolsVersionLine line: some StringProtocol) {
        guard let match = String(line).firstMatch(of: /^\/\/ *swift-tools-version *: *([0-9.]+)/.ignoresCase()),
            let version = SwiftVersion(match.output.1)
        else { return nil }
        self = version
    }

    static func < (lhs: SwiftVersion, rhs: SwiftVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
    }

    static func == (lhs: SwiftVersion, rhs: SwiftVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) == (rhs.major, rhs.minor, rhs.patch)
    }

    var description: String { [major, minor, patch].prefix(written).map(String.init).joined(separator: ".") }

    /// The names a compiler of this version looks for before any other manifest, most specific first
    /// (`Package@swift-6.3.1.swift`, `Package@swift-6.3.swift`, `Package@swift-6.swift`).
    var versionSpecificManifestNames: [String] {
        ["\(major).\(minor).\(patch)", "\(major).\(minor)", "\(major)"].map { "Package@swift-\($0).swift" }
    }
}
