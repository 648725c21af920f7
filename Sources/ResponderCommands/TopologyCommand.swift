import ArgumentParser
import Foundation
import ResponderWorker

/// `topology`: prints what `run` declares; with `--declare-policy`, declares the dead-lettering policy.
struct TopologyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "topology",
        abstract: "Print the exchanges, queues and bindings the worker declares.",
        discussion: """
            With --declare-policy, also creates (or replaces) on the broker the policy under which the queues \
            the worker consumes (the input queue, or the shard queues) dead-letter at least once, through \
            RabbitMQ's management API (the rabbitmq_management plugin): a message the broker dead-letters from \
            them (delivery limit, oversized body) while the dead-letter route is missing stays there until the \
            route is back. Queues that exist get it too. Run it again after changing the shard count.
            """)

    @OptionGroup var names: TopologyOptions

    @Flag(help: "Print JSON instead of the human form.")
    var json = false

    @Flag(help: "Declare the at-least-once dead-lettering policy through the management API.")
    var declarePolicy = false

    @Option(name: Settings.managementURL.name, help: Settings.managementURL.help.valueName("url"))
    var managementURL: String?

    func run() async throws {
        let environment = EnvironmentFallback()
        let topology = try names.topology(environment)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(topology.declarations), as: UTF8.self))
        } else {
            print(topology.declarations.humanDescription, terminator: "")
        }
        guard declarePolicy else { return }
        let api = try ManagementAPI(url: try environment.managementURL(managementURL))
        let policy = topology.deadLetterPolicy
        try await api.declare(policy)
        let definition = policy.definition.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        standardError(
            "topology: declared policy \(policy.name) (queues matching \(policy.pattern), priority \(policy.priority), "
                + "\(definition.joined(separator: " "))) at \(api.description)")
    }
}
