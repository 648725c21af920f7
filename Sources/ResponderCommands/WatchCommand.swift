import AMQP
import ArgumentParser
import Foundation
import NotificationEvents
import ResponderWorker

/// `watch`: prints action-set updates as they are published, one line a person reads at a glance.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print action-set updates as they arrive at the output exchange.",
        discussion: """
            One line an update: the request identifier, the input event that caused it (without the request \
            identifier when the event id starts with it), and the new buttons:
              red-0001  tap-1  →  [Rotate 20°] [Reset rotation]
            Reads through a temporary queue of its own, so the push sender's queue keeps every update.
            """)

    @OptionGroup(title: "Broker") var broker: BrokerOptions

    @Option(name: Settings.limit.name, help: Settings.limit.help) var limit: String?
    @Option(name: Settings.watchedExchange.name, help: Settings.watchedExchange.help) var exchange: String?

    func run() async throws {
        let logger = bootstrapLogging(level: .warning)
        let environment = EnvironmentFallback()
        let limit = try Settings.limit.resolveOptional(self.limit, environment)
        let source = try Settings.watchedExchange.resolve(exchange, environment)
        let connection = try await broker.connect(environment, name: "watch", logger: logger)
        let channel = try await connection.openChannel()
        let tap = try await TapQueue.open(on: channel, exchange: source, routingKey: "#")
        standardError("watch: watching \(source)")
        let stopper = onStopSignal { try? await tap.deliveries.cancel() }
        defer { stopper.cancel() }
        var seen = 0
        for try await delivery in tap.deliveries {
            FileHandle.standardOutput.write(Data((Self.line(for: delivery.body) + "\n").utf8))
            try channel.ack(deliveryTag: delivery.deliveryTag)
            seen += 1
            if let limit, seen >= limit { break }
        }
        await connection.close()
    }

    /// The human form of one published update, or a note saying why it is not one.
    static func line(for body: [UInt8]) -> String {
        guard let event = try? EventCodec.decodeActionSetUpdateEvent(body) else {
            return "(not an action-set update: \(body.count) bytes)"
        }
        let update = event.data
        var cause = update.causationId
        if cause.hasPrefix(update.requestIdentifier), cause.count > update.requestIdentifier.count {
            cause = String(cause.dropFirst(update.requestIdentifier.count).drop { "/.:-_ ".contains($0) })
        }
        let buttons = update.actions.map { "[\($0.title)]" }.joined(separator: " ")
        return "\(update.requestIdentifier)  \(cause)  →  \(buttons.isEmpty ? "(no buttons)" : buttons)"
    }
}
