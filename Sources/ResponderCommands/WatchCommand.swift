import AMQP
import ArgumentParser
import Foundation
import NotificationEvents
import Responder
import ResponderIntake
import ResponderWorker

/// `watch`: prints what the worker publishes as it is published, one line a person reads at a glance.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print what arrives at the output exchange, one readable line each.",
        discussion: """
            One line a message: the request identifier, the input event that caused it (without the request \
            identifier when the event id starts with it), and what the worker asks of the device:
              red-0001  tap-1  →  [Rotate 20°] [Reset rotation]     an action-set update: the new buttons
              red-0001  dismiss-1  →  dismiss                        a dismissal command
              red-0001  replace-1  →  remove                         a removal command
            Both content modes are read. A dead letter (--output-exchange responder.dead-letter) shows its \
            message id, reason and detail; any other message (what handlers send, with --output-exchange naming \
            its destination) its message id, type, exchange and routing key: bodies that are not the contract's, \
            and the inputs dead letters carry, are never shown, so no userText reaches the terminal.
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
            FileHandle.standardOutput.write(Data((Self.line(for: delivery.message) + "\n").utf8))
            try channel.ack(deliveryTag: delivery.deliveryTag)
            seen += 1
            if let limit, seen >= limit { break }
        }
        await connection.close()
    }

    /// The human form of one message at the watched exchange: each kind the worker publishes in a line of its own,
    /// never a body that is not the contract's (what a handler sent may hold what a user typed).
    static func line(for message: InboundMessage) -> String {
        let properties = message.properties
        let headers = properties.jsonHeaders
        // A dead letter keeps its input's body (a response, with its userText): only the failure is shown.
        if let failure = try? DeadLetterInfo(headers: headers) {
            return "\(properties.messageID ?? "(no message id)")  ✗  dead-lettered (\(failure.reason.rawValue)) "
                + "after \(failure.attempts) attempts: \(failure.detail)"
        }
        let binary = EventContentMode.of(contentType: properties.contentType, headers: headers) == .binary
        let (contentType, body) = (properties.contentType, message.body)
        if let event = try? (binary
            ? EventCodec.decodeActionSetUpdateEvent(headers: headers, contentType: contentType, body: body)
            : EventCodec.decodeActionSetUpdateEvent(body))
        {
            let update = event.data
            let buttons = update.actions.map { "[\($0.title)]" }.joined(separator: " ")
            return "\(update.requestIdentifier)  \(cause(update.causationId, of: update.requestIdentifier))  →  "
                + (buttons.isEmpty ? "(no buttons)" : buttons)
        }
        for kind in DeviceCommandKinds.all {
            if let line = commandLine(kind, of: message, headers: binary ? headers : nil) { return line }
        }
        // A message a handler sent (the outbox), or another publisher's: its body is theirs to read.
        let type = properties.type.map { " \($0)" } ?? ""
        return "\(properties.messageID ?? "(no message id)")  →  message\(type) to \(message.exchange) "
            + "(routing key \(message.routingKey.isEmpty ? "none" : message.routingKey)): \(body.count) bytes, not shown"
    }

    /// The line of a device command of `kind`, or nil when `message` is not one; `headers` are its attribute
    /// headers when it is in binary mode.
    private static func commandLine<Kind: DeviceCommandKind>(
        _ kind: Kind.Type, of message: InboundMessage, headers: [String: JSONValue]?
    ) -> String? {
        guard
            let event = try? (headers.map {
                try EventCodec.decodeDeviceCommandEvent(
                    headers: $0, contentType: message.properties.contentType, body: message.body, as: kind)
            } ?? EventCodec.decodeDeviceCommandEvent(message.body, as: kind))
        else { return nil }
        let command = event.data
        return "\(command.requestIdentifier)  \(cause(command.causationId, of: command.requestIdentifier))  →  \(Kind.verb)"
    }

    /// The input event's id without the request identifier when it starts with it (`red-0001/tap-1` → `tap-1`).
    private static func cause(_ causationID: String, of requestIdentifier: String) -> String {
        guard causationID.hasPrefix(requestIdentifier), causationID.count > requestIdentifier.count else {
            return causationID
        }
        return String(causationID.dropFirst(requestIdentifier.count).drop { "/.:-_ ".contains($0) })
    }
}
