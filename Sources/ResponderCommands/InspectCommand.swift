import ArgumentParser
import Foundation
import Logging
import NotificationEvents
import Responder

/// `inspect`: what the state store holds about one notification, for an operator looking into a dead letter or a
/// user's report. It reads and never writes.
struct InspectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print one notification's stored state, version and recent inbox entries.",
        discussion: """
            Prints the notification's category, version, buttons and each extension's stored state, then its most \
            recent inbox entries (event source and id, when processed, and the message id and routing key of each \
            output). Outputs are not printed whole, and no response's userText is ever stored. The store is the \
            one --state or --state-file names, never RESPONDER_STATE or RESPONDER_STATE_FILE; a SQLite file must \
            exist already. Finding the entries may read the whole inbox: an operator's command, not a monitor's.
            """)

    @Argument(help: "The notification's request identifier.")
    var requestIdentifier: String

    @OptionGroup(title: "State") var store: NamedStateOption

    @Option(help: "How many of the most recent inbox entries to print (1 to 1000).")
    var entries = 10

    func validate() throws {
        guard (1...1000).contains(entries) else { throw ValidationError("--entries: 1 to 1000") }
    }

    func run() async throws {
        for line in try await store.reading(logger: bootstrapLogging(level: .warning), lines) { print(line) }
    }

    /// What is printed, line by line.
    private func lines(_ store: any StateStore) async throws -> [String] {
        var lines: [String] = []
        if let record = try await store.notification(requestIdentifier) {
            lines.append("notification \(requestIdentifier)  category \(record.categoryIdentifier)  version \(record.version)")
            lines.append("actions: " + record.actions.map { "[\($0.title)] (\($0.identifier))" }.joined(separator: " "))
            for (handler, state) in record.handlerStates.sorted(by: { $0.key < $1.key }) {
                lines.append("state of \(handler): \(String(decoding: state, as: UTF8.self))")
            }
        } else {
            lines.append("notification \(requestIdentifier): no stored state (never changed, or forgotten after its retention)")
        }
        let entries = try await store.inboxEntries(of: requestIdentifier, limit: entries)
        lines.append("inbox: \(entries.count) most recent entr\(entries.count == 1 ? "y" : "ies")")
        for entry in entries {
            let outputs = entry.outputs.map { "\($0.properties.messageID ?? "(no message id)") → \($0.exchange) [\($0.routingKey)]" }
            lines.append(
                "  \(entry.processedAt.formatted(.iso8601))  \(entry.source) \(entry.eventID)  "
                    + (outputs.isEmpty ? "no output" : outputs.joined(separator: ", ")))
        }
        return lines
    }
}
