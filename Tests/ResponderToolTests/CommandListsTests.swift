import BrokerHarness
import Foundation
import Testing
import WorkerHarness

@testable import ResponderCommands

/// Every list of commands in the docs (README and the DocC articles) names every command the binary registers: a
/// command added or removed changes the lists in the same commit or fails here, as the README's handler code is
/// held to the example (ReadmeHandlerCodeTests).
@Suite struct CommandListsTests {
    /// The commands `responder` and a team's executable (`ResponderCommandLine`) register.
    static let commands = ResponderCommand.subcommands.map { $0._commandName }

    /// README.md and every DocC article of the package.
    static func pages() throws -> [(name: String, text: String)] {
        let sources = Paths.root.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }
            .filter { $0.pathExtension == "md" && $0.path.contains(".docc/") }
        return try ([Paths.root.appendingPathComponent("README.md")] + files).map {
            ($0.lastPathComponent, try String(contentsOf: $0, encoding: .utf8))
        }
    }

    /// The commands a paragraph (or table) names in code spans: `` `replay` `` or `` `replay FIXTURE` ``.
    static func commandsNamed(in paragraph: String) -> Set<String> {
        Set(commands.filter { paragraph.contains("`\($0)`") || paragraph.contains("`\($0) ") })
    }

    /// A paragraph (or table) that names more than half the commands is a list of them, and must name them all.
    static let listSize = commands.count / 2 + 1

    @Test func everyListOfCommandsNamesEveryCommand() throws {
        #expect(Self.commands.count == 11)
        var lists = 0
        for page in try Self.pages() {
            for paragraph in page.text.components(separatedBy: "\n\n") {
                let named = Self.commandsNamed(in: paragraph)
                guard named.count >= Self.listSize else { continue }
                lists += 1
                let missing = Self.commands.filter { !named.contains($0) }
                #expect(missing.isEmpty, "\(page.name) lists commands without \(missing):\n\(paragraph)")
            }
        }
        // The README's, the handlers article's and the Configuration article's table at least.
        #expect(lists >= 3)
    }
}
