import BrokerHarness
import Foundation
import Testing
import WorkerHarness

@testable import ResponderCommands

/// The Configuration article's table (ResponderWorker.docc) is the settings' declarations rendered: a setting added,
/// renamed or given another default changes the article in the same commit or fails here.
@Suite struct ConfigurationTableTests {
    static let header = ["| flag | environment | default | allowed | what |", "| --- | --- | --- | --- | --- |"]

    @Test func articlesTableIsTheDeclarationsRendered() throws {
        let article = try String(
            contentsOf: Paths.root.appendingPathComponent("Sources/ResponderWorker/ResponderWorker.docc/Configuration.md"), encoding: .utf8)
        let table = (Self.header + Settings.run.map(\.markdownRow)).joined(separator: "\n")
        #expect(article.contains(table + "\n"), "Configuration.md's configuration table should read:\n\(table)")
    }

    @Test func everyRunSettingHasAVariableAndNoTwoShareAFlag() {
        #expect(Settings.run.allSatisfy { $0.variable?.hasPrefix("RESPONDER_") == true })
        #expect(Set(Settings.run.map(\.flag)).count == Settings.run.count)
    }
}
