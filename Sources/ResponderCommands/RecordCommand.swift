import AMQP
import ArgumentParser
import Foundation
import NotificationEvents
import Responder
import ResponderIntake
import ResponderWorker

/// `record`: records what arrives at an exchange as fixture lines, through a tap queue of its own.
struct RecordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record the messages arriving at the input exchange as fixture lines.",
        discussion: """
            Binds a temporary queue of its own (exclusive, deleted when the command ends) to the exchange, so the \
            worker's queue keeps every event. Stops after --limit messages, or on SIGINT/SIGTERM. The file holds \
            what users typed, so it is readable by its owner only (0600, an existing file too), and --out is \
            refused when it is a symbolic link.
            """)

    @OptionGroup(title: "Broker") var broker: BrokerOptions

    @Option(help: "Where the fixture lines go; - for stdout.")
    var out: String

    @Option(name: Settings.limit.name, help: Settings.limit.help) var limit: String?
    @Option(name: Settings.recordedExchange.name, help: Settings.recordedExchange.help) var exchange: String?

    @Option(help: "The binding key of the tap queue.")
    var routingKey = "#"

    func run() async throws {
        let logger = bootstrapLogging(level: .warning)
        let environment = EnvironmentFallback()
        let limit = try Settings.limit.resolveOptional(self.limit, environment)
        let source = try Settings.recordedExchange.resolve(exchange, environment)
        let sink = try OutputSink(path: out == "-" ? nil : out, keepsLines: false, isPrivate: true)
        let connection = try await broker.connect(environment, name: "record", logger: logger)
        let channel = try await connection.openChannel()
        let tap = try await TapQueue.open(on: channel, exchange: source, routingKey: routingKey)
        standardError("record: tapping \(source) [\(routingKey)] into \(out == "-" ? "stdout" : out)")
        let stopper = onStopSignal { try? await tap.deliveries.cancel() }
        defer { stopper.cancel() }
        var recorded = 0
        for try await delivery in tap.deliveries {
            try sink.write(EventCodec.encode(FixtureLine(delivered: delivery.message)))
            try channel.ack(deliveryTag: delivery.deliveryTag)
            recorded += 1
            if let limit, recorded >= limit { break }
        }
        try sink.close()
        await connection.close()
        standardError("record: \(recorded) messages")
    }
}
