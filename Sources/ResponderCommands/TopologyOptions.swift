import ArgumentParser
import ResponderIntake
import ResponderWorker

/// Topology names, for the commands that declare or use them.
struct TopologyOptions: ParsableArguments {
    @Option(name: Settings.inputExchange.name, help: Settings.inputExchange.help) var inputExchange: String?
    @Option(name: Settings.inputQueue.name, help: Settings.inputQueue.help) var inputQueue: String?
    @Option(name: Settings.outputExchange.name, help: Settings.outputExchange.help) var outputExchange: String?
    @Option(name: Settings.outputQueue.name, help: Settings.outputQueue.help) var outputQueue: String?
    @Option(name: Settings.deadLetterExchange.name, help: Settings.deadLetterExchange.help)
    var deadLetterExchange: String?
    @Option(name: Settings.deadLetterQueue.name, help: Settings.deadLetterQueue.help) var deadLetterQueue: String?
    @Option(name: Settings.retryDelays.name, help: Settings.retryDelays.help) var retryDelays: String?
    @Option(name: Settings.followUpDelays.name, help: Settings.followUpDelays.help) var followUpDelays: String?
    @Option(name: Settings.deliveryLimit.name, help: Settings.deliveryLimit.help) var deliveryLimit: String?
    @Option(name: Settings.outputQueueType.name, help: Settings.outputQueueType.help) var outputQueueType: String?
    @Option(name: Settings.shards.name, help: Settings.shards.help) var shards: String?
}

extension TopologyOptions {
    /// The topology these options and the environment describe.
    func topology(_ environment: EnvironmentFallback) throws(SettingError) -> Topology {
        var topology = Topology()
        topology.inputExchange = try Settings.inputExchange.resolve(inputExchange, environment)
        topology.inputQueue = try Settings.inputQueue.resolve(inputQueue, environment)
        topology.outputExchange = try Settings.outputExchange.resolve(outputExchange, environment)
        topology.outputQueue = try Settings.outputQueue.resolve(outputQueue, environment)
        topology.deadLetterExchange = try Settings.deadLetterExchange.resolve(deadLetterExchange, environment)
        topology.deadLetterQueue = try Settings.deadLetterQueue.resolve(deadLetterQueue, environment)
        topology.retryDelays = try Settings.retryDelays.resolve(retryDelays, environment)
        topology.followUpDelays = try Settings.followUpDelays.resolve(followUpDelays, environment)
        topology.deliveryLimit = try Settings.deliveryLimit.resolve(deliveryLimit, environment)
        topology.outputQueueType = try Settings.outputQueueType.resolve(outputQueueType, environment)
        topology.shards = try Settings.shards.resolve(shards, environment)
        return topology
    }
}
