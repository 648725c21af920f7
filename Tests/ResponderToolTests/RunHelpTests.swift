import BrokerHarness
import Foundation
import Testing
import WorkerHarness

/// `responder run --help` is the configuration reference: every option says its environment variable and its
/// default.
@Suite(.timeLimit(.minutes(10)))
struct RunHelpTests {
    /// The help's option entries, each with its wrapped help text joined onto one line.
    static func optionEntries(_ help: String) -> [String] {
        var entries: [String] = []
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            let indentation = line.prefix { $0 == " " }.count
            let text = line.trimmingCharacters(in: .whitespaces)
            if indentation == 2, text.hasPrefix("-") {
                entries.append(text)
            } else if indentation > 2, !entries.isEmpty, !text.isEmpty {
                entries[entries.count - 1] += " " + text
            } else if !text.isEmpty, indentation <= 2 {
                // A section title or an argument: the option entry before it has ended.
                entries.append("")
            }
        }
        return entries.filter { !$0.isEmpty }
    }

    @Test func everyOptionNamesItsVariableAndDefault() async throws {
        let result = try await Tool.run(["run", "--help"])
        #expect(result.status == 0, "\(result.stderr)")
        let entries = Self.optionEntries(result.stdout)
        let documented = entries.filter { !$0.hasPrefix("-h, --help") && !$0.hasPrefix("--version") }
        for entry in documented {
            #expect(entry.contains("env: RESPONDER_"), "\(entry)")
            #expect(entry.contains("default:"), "\(entry)")
        }
        for option in [
            "--amqp-url", "--categories", "--state", "--prefetch", "--concurrency", "--input-exchange", "--input-queue",
            "--output-exchange", "--output-queue", "--dead-letter-exchange", "--dead-letter-queue", "--retry-delays",
            "--delivery-limit", "--metrics-port", "--metrics-host", "--grace-period", "--max-body-size", "--worker-id",
            "--output-mode", "--log-level", "--heartbeat", "--inbox-retention-hours", "--notification-retention-days",
            "--ca-file",
        ] {
            #expect(documented.contains { $0.hasPrefix(option + " ") }, "\(option) is documented")
        }
        #expect(result.stdout.contains("RESPONDER_AMQP_URL_FILE"))
    }

    @Test func eachVariableNamedInTheHelpIsOneTheCommandReads() async throws {
        let help = try await Tool.run(["run", "--help"]).stdout
        let variables = Set(help.matches(of: /RESPONDER_[A-Z_]+/).map { String($0.output) })
        let sources = try String(
            contentsOf: Paths.root.appendingPathComponent("Sources/ResponderCommands/Settings/Settings.swift"),
            encoding: .utf8)
        for variable in variables.sorted() {
            #expect(sources.contains("\"\(variable)\""), "\(variable) is documented but never read")
        }
    }
}
