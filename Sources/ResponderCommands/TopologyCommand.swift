import ArgumentParser
import Foundation
import ResponderWorker

/// `topology`: prints what `run` declares.
struct TopologyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "topology",
        abstract: "Print the exchanges, queues and bindings the worker declares.")

    @OptionGroup var names: TopologyOptions

    @Flag(help: "Print JSON instead of the human form.")
    var json = false

    func run() throws {
        let topology = try names.topology(EnvironmentFallback())
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(topology.declarations), as: UTF8.self))
        } else {
            print(topology.declarations.humanDescription, terminator: "")
        }
    }
}
