import BrokerHarness
import Foundation
import Testing

/// A team's SQLite worker compiles only what it uses: `Responder` and `ResponderTesting` (what handler libraries and
/// their tests build) reach neither database's package, PostgreSQL and OpenTelemetry are traits the example leaves
/// out, and the committed measurement (Benchmarks/results/build-weight.md) shows that this halves the build.
@Suite struct BuildWeightTests {
    /// Packages that only the stores link.
    static let databasePackages: Set<String> = ["GRDB.swift", "postgres-nio"]

    static func text(_ path: String) throws -> String {
        try String(contentsOf: Paths.root.appendingPathComponent(path), encoding: .utf8)
    }

    @Test(arguments: ["Responder", "ResponderTesting"])
    func neitherDatabaseIsReachedFrom(target: String) throws {
        let manifest = try PackageTargets(try Self.text("Package.swift"))
        let reached = try manifest.closure(of: target)
        #expect(reached.targets.contains("NotificationEvents") && reached.packages.contains("swift-log"), "\(reached)")
        #expect(reached.packages.isDisjoint(with: Self.databasePackages), "\(target) reaches \(reached.packages)")
        #expect(
            reached.targets.isDisjoint(with: ["ResponderSQLite", "ResponderPostgres"]),
            "\(target) reaches \(reached.targets)")
    }

    /// The stores are where the databases went, and the commands reach PostgreSQL and OpenTelemetry only through
    /// their traits.
    @Test func theCommandsReachPostgreSQLAndOpenTelemetryOnlyThroughTheirTraits() throws {
        let manifest = try PackageTargets(try Self.text("Package.swift"))
        #expect(try manifest.closure(of: "ResponderSQLite").packages.contains("GRDB.swift"))
        let commands = try manifest.dependencies(of: "ResponderCommands")
        #expect(commands.contains { $0.contains("\"ResponderPostgres\", condition: .when(traits: [\"PostgreSQL\"])") })
        #expect(commands.contains { $0.contains("package: \"swift-otel\", condition: .when(traits: [\"OpenTelemetry\"])") })
        let example = try Self.text("Examples/CustomHandlers/Package.swift")
        #expect(example.contains(#".package(name: "responder", path: "../..", traits: [])"#))
    }

    /// The committed measurement: the example's cold build with only SQLite takes less than half the build steps of
    /// its build with the default traits.
    @Test func theSQLiteOnlyBuildTakesLessThanHalfTheDefaultsSteps() throws {
        let results = try Self.text("Benchmarks/results/build-weight.md")
        func steps(_ row: String) throws -> Int {
            let line = try #require(results.split(separator: "\n").first { $0.hasPrefix("| \(row) |") }, "no \(row) row")
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            return try #require(Int(cells[2].replacingOccurrences(of: ",", with: "")), "\(line)")
        }
        let (full, sqlite) = (try steps("default traits"), try steps("SQLite only"))
        #expect(sqlite * 2 < full, "SQLite only: \(sqlite) steps, default traits: \(full)")
    }
}

/// The targets of a Package.swift as its text declares them: enough to follow dependencies without loading it.
struct PackageTargets {
    struct Unknown: Error, CustomStringConvertible {
        var target: String
        var description: String { "Package.swift declares no target \(target)" }
    }

    /// The manifest without its comments (`//` after a space or at a line's start: never a URL's).
    private let text: String

    init(_ manifest: String) throws {
        text = manifest.replacing(try Regex(#"(?m)(^|\s)//.*$"#), with: "")
    }

    /// Each entry of `target`'s dependency list, as written.
    func dependencies(of target: String) throws -> [String] {
        let declaration = #/\.(target|executableTarget|testTarget)\(\s*name:\s*"/#
        guard
            let start = text.matches(of: declaration).first(where: { text[$0.range.upperBound...].hasPrefix("\(target)\"") })
        else { throw Unknown(target: target) }
        let body = Self.balanced(text[start.range.lowerBound...], open: "(", close: ")")
        guard let list = body.range(of: "dependencies:") else { return [] }
        let entries = Self.balanced(body[list.upperBound...].drop { $0 != "[" }, open: "[", close: "]").dropFirst().dropLast()
        var result: [String] = []
        var depth = 0
        var current = ""
        for character in entries {
            if "([".contains(character) { depth += 1 }
            if ")]".contains(character) { depth -= 1 }
            if character == ",", depth == 0 {
                result.append(current.trimmingCharacters(in: .whitespacesAndNewlines))
                current = ""
            } else {
                current.append(character)
            }
        }
        result.append(current.trimmingCharacters(in: .whitespacesAndNewlines))
        return result.filter { !$0.isEmpty }
    }

    /// The local targets and the packages `target` reaches, itself excluded.
    func closure(of target: String) throws -> (targets: Set<String>, packages: Set<String>) {
        var targets: Set<String> = []
        var packages: Set<String> = []
        var pending = [target]
        while let next = pending.popLast() {
            for entry in try dependencies(of: next) {
                if let package = entry.firstMatch(of: #/package:\s*"([^"]+)"/#) {
                    packages.insert(String(package.1))
                } else if let local = entry.firstMatch(of: #/"([^"]+)"/#), targets.insert(String(local.1)).inserted {
                    pending.append(String(local.1))
                }
            }
        }
        return (targets, packages)
    }

    /// `text` from its first `open` to the `close` that balances it, both included.
    private static func balanced(_ text: Substring, open: Character, close: Character) -> Substring {
        guard let first = text.firstIndex(of: open) else { return "" }
        var depth = 0
        var index = first
        while index < text.endIndex {
            if text[index] == open { depth += 1 }
            if text[index] == close {
                depth -= 1
                if depth == 0 { return text[first...index] }
            }
            index = text.index(after: index)
        }
        return text[first...]
    }
}
