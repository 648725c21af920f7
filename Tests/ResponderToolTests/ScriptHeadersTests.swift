import BrokerHarness
import Foundation
import Testing

/// The README promises that each script's header lists the variables it uses: every environment variable a script
/// reads and does not set itself is named in the comment block at its top.
@Suite struct ScriptHeadersTests {
    /// The scripts held to it so far.
    static let scripts = ["scripts/demo"]

    /// The variables `script` reads (`$NAME`, `${NAME…}`, upper case: not dpkg-query's `${Status}`) that it does not
    /// assign, and its header.
    static func variables(of script: String) -> (read: Set<String>, header: String) {
        let header = script.split(separator: "\n").dropFirst().prefix { $0.hasPrefix("#") }.joined(separator: "\n")
        let read = Set(script.matches(of: #/\$\{?([A-Z][A-Z0-9_]*)(?![a-z])/#).map { String($0.1) })
        let assigned = Set(script.matches(of: #/(?m)^\s*(?:export\s+)?([A-Z][A-Z0-9_]*)=/#).map { String($0.1) })
        return (read.subtracting(assigned), header)
    }

    @Test(arguments: scripts) func theHeaderNamesEveryVariableTheScriptReads(_ path: String) throws {
        let script = try String(contentsOf: Paths.root.appendingPathComponent(path), encoding: .utf8)
        let (read, header) = Self.variables(of: script)
        #expect(read.contains("DEMO_BINARY") || path != "scripts/demo", "the pattern finds what the demo reads")
        let named = Set(header.matches(of: #/[A-Z][A-Z0-9_]*/#).map { String($0.0) })
        let missing = read.subtracting(named).sorted()
        #expect(missing.isEmpty, "\(path)'s header does not name \(missing)")
    }
}
