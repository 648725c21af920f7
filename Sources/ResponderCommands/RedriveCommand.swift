import AMQP
import ArgumentParser
import Foundation
import NotificationEvents
import Responder
import ResponderIntake
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
            queue only after the broker confirmed the republish. The options select which move (every one given \
            must hold: a reason, a message id, a notification, a category, a time window); the others stay, in \
            order. The messages present when the command starts are considered, once each. --show prints each \
            selected message in full first (what a user typed is never shown). --replace-body FILE sends one \
            message (--message-id) back with the body in FILE instead, once it passed the contract's checks.
            """)

    @OptionGroup(title: "Broker") var broker: BrokerOptions
    @OptionGroup(title: "Topology") var names: TopologyOptions

    @OptionGroup(title: "Which messages") var selection: DeadLetterSelection

    @Flag(help: "Only list what would move.")
    var dryRun = false

    @Flag(help: "Print each selected message in full (as a fixture line, userText redacted) before moving it.")
    var show = false

    @Option(help: "Send the one message --message-id selects back with the body in this file, checked against the contract first.")
    var replaceBody: String?

    func validate() throws {
        if replaceBody != nil, selection.messageId == nil {
            throw ValidationError("--replace-body needs --message-id: it replaces one message's body")
        }
    }

    func run() async throws {
        let window = try selection.window()
        let replacement = try replaceBody.map { Array(try ReadableFile.text($0, for: "--replace-body").utf8) }
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
            guard selection.matches(message, failure, window: window) else {
                kept += 1
                continue
            }
            if show { print(DeadLetterDisplay.line(message)) }
            var body = message.body
            if let replacement {
                // The operator's file is checked as the worker will check it, with the message's properties.
                var edited = message.message
                edited.body = replacement
                do throws(InputRejection) {
                    _ = try ResponsePipeline.decodeEvent(edited)
                } catch {
                    standardError(
                        "redrive: \(replaceBody ?? "") is not a valid event for this message (\(error)); it stays in "
                            + "the queue")
                    throw ExitCode(1)
                }
                body = replacement
            }
            print("\(dryRun ? "would move" : "moving") \(message.properties.messageID ?? "(no message id)")  \(failure.reason?.rawValue ?? "unknown")  → \(failure.exchange) [\(failure.routingKey)]")
            if dryRun {
                kept += 1
                continue
            }
            // Checked before anything is written: the connection stays fine and the message stays where it is.
            if let problem = target.publishLimits.problem(
                exchange: failure.exchange, routingKey: failure.routingKey, properties: failure.cleanedProperties,
                bodySize: body.count)
            {
                standardError("redrive: left \(message.properties.messageID ?? "(no message id)") in the queue: \(problem)")
                kept += 1
                continue
            }
            try await target.publish(
                body, exchange: failure.exchange, routingKey: failure.routingKey, mandatory: true,
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
