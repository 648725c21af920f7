import Foundation
import Testing
import WorkerHarness

@testable import ResponderCommands

/// README's configuration table is the settings' declarations rendered: a setting added, renamed or given another
/// default changes the README in the same commit or fails here.
@Suite struct ConfigurationTableTests {
    static let header = ["| flag | environment | default | allowed | what |", "| --- | --- | --- | --- | --- |"]

    @Test func readmesTableIsTheDeclarationsRendered() throws {
        let readme = try String(contentsOf: Paths.root.appendingPathComponent("README.md"), encoding: .utf8)
        let table = (Self.header + Settings.run.map(\.markdownRow)).joined(separator: "\n")
        #expect(readme.contains(table + "\n"), "README.md's configuration table should read:\n\(table)")
    }

    @Test func everyRunSettingHasAVariableAndNoTwoShareAFlag() {
        #expect(Settings.run.allSatisfy { $0.variable?.hasPrefix("RESPONDER_") == true })
        #expect(Set(Settings.run.map(\.flag)).count == Settings.run.count)
    }
}
