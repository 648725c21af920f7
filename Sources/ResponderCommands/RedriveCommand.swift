import AMQP
import ArgumentParser
import Foundation
import NotificationEvents
import ResponderWorker

/// `redrive`: moves dead-lettered messages back to the input, each confirmed there before it leaves the
/// dead-letter queue.
struct RedriveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "redrive",
        abstract: "Move messages from the dead-letter queue back to the input exchange.",
        discussion: """
            Each message is republished to the input exchange, and nowhere else whatever its headers say, with \
            the routing key the worker first saw it with (in ordered mode: its notification's shard), with its \
            failure headers removed (so it gets a full set of retries), and is removed from the dead-letter \
            queue only after the broker confirmed the republish. With --reason, only messages dead-lettered for \
            that reason move; the others stay, in order. The messages present when the command starts are \
            considered, once each.
            """)

    @OptionGroup(title: "Broker") var broker: BrokerOptions
    @OptionGroup(title: "Topology") var names: TopologyOptions

    @Option(help: "Only messages dead-lettered for this reason code (\(DeadLetterReason.allCases.map(\.rawValue).joined(separator: ", "))).")
    var reason: DeadLetterReason?

    @Flag(help: "Only list what would move.")
    var dryRun = false

    func run() async throws {
        let logger = bootstrapLogging(level: .warning)
        let environment = EnvironmentFallback()
        let topology = try names.topology(environment)
        let connection = try await broker.connect(environment, name: "redrive", logger: logger)
        let source = try await connection.openChannel()
        let target = try await connection.openChannel()
        try await target.enablePublisherConfirms()
        let present = try await source.declareQueue(
            topology.deadLetterQueue, durable: true, exclusive: false, autoDelete: false, passive: true, arguments: [:])
        var moved = 0
        var kept = 0
        // basic.get leaves the messages it does not take unacknowledged until the end, so each is seen once and
        // the ones kept go back in their order when the channel closes.
        for _ in 0..<present.messageCount {
            guard let message = try await source.get(queue: topology.deadLetterQueue) else { break }
            let failure = DeadLetterOrigin(message, inputExchange: topology.inputExchange)
            guard reason == nil || failure.reason == reason else {
                kept += 1
                continue
            }
            print("\(dryRun ? "would move" : "moving") \(message.properties.messageID ?? "(no message id)")  \(failure.reason?.rawValue ?? "unknown")  → \(failure.exchange) [\(failure.routingKey)]")
            if dryRun {
                kept += 1
                continue
            }
            // Checked before anything is written: the connection stays fine and the message stays where it is.
            if let problem = target.publishLimits.problem(
                exchange: failure.exchange, routingKey: failure.routingKey, properties: failure.cleanedProperties,
                bodySize: message.body.count)
            {
                standardError("redrive: left \(message.properties.messageID ?? "(no message id)") in the queue: \(problem)")
                kept += 1
                continue
            }
            try await target.publish(
                message.body, exchange: failure.exchange, routingKey: failure.routingKey, mandatory: true,
                properties: failure.cleanedProperties)
            try source.ack(deliveryTag: message.deliveryTag)
            moved += 1
        }
        await source.close()
        await target.close()
        await connection.close()
        standardError("redrive: moved \(moved), left \(kept) in \(topology.deadLetterQueue)")
    }
}

extension DeadLetterReason: ExpressibleByArgument {}
