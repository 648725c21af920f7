import Logging

@testable import AMQP

/// Drives a ``ConnectionStateMachine`` the way the I/O thread does, command by command and frame by frame, and
/// returns what it asks for; the replies it sends callers land in ``Outcome`` boxes.
struct StateMachineDriver {
    var machine: ConnectionStateMachine

    init(channelMax: UInt16 = 8, maxBodySize: Int? = nil) {
        machine = ConnectionStateMachine(
            channelMax: channelMax, maxBodySize: maxBodySize, logger: Logger(label: "state-machine-test"))
    }

    mutating func execute(_ command: Command) -> [ConnectionAction] {
        var actions: [ConnectionAction] = []
        machine.execute(command, into: &actions)
        return actions
    }

    mutating func receive(_ frame: IncomingFrame) -> [ConnectionAction] {
        var actions: [ConnectionAction] = []
        machine.receive(frame, into: &actions)
        return actions
    }

    /// Receives a body frame holding `bytes`.
    mutating func receiveBody(_ bytes: [UInt8], on channel: UInt16) -> [ConnectionAction] {
        bytes.withUnsafeBytes { receive(.body(channel: channel, $0)) }
    }

    mutating func handOverDeliveries() -> [ConnectionAction] {
        var actions: [ConnectionAction] = []
        machine.handOverDeliveries(into: &actions)
        return actions
    }

    /// Opens a channel as the broker would answer it, and returns its link.
    mutating func openChannel() throws -> ChannelLink {
        let opened = Outcome<ChannelLink>()
        let sent = execute(.openChannel(reply: opened.reply))
        guard case .send(.open, let number)? = sent.first else { throw Unexpected(sent) }
        _ = receive(.method(channel: number, .answer(.channelOpened)))
        return try opened.value.get()
    }

    /// Sends `method` on `link` and returns where its reply lands, plus the actions.
    mutating func call(_ method: ChannelMethod, on link: ChannelLink) -> (Outcome<MethodReply>, [ConnectionAction]) {
        let outcome = Outcome<MethodReply>()
        let actions = execute(.call(link, method, reply: outcome.reply))
        return (outcome, actions)
    }

    /// Puts the channel in confirm mode, as the broker would answer confirm.select.
    mutating func selectConfirms(on link: ChannelLink) throws {
        let (selected, _) = call(.selectConfirms, on: link)
        _ = receive(.method(channel: link.id, .answer(.confirmsSelected)))
        _ = try selected.value.get()
    }

    /// Hands a publish on `link` to the state machine, and returns it with the actions.
    mutating func publish(on link: ChannelLink, mandatory: Bool = false) -> (PublishConfirmation, [ConnectionAction]) {
        let confirmation = PublishConfirmation(
            request: OutgoingPublish(
                channel: link, exchange: "", routingKey: "q", mandatory: mandatory, properties: MessageProperties(),
                body: [1]))
        return (confirmation, execute(.publish(confirmation)))
    }

    /// Starts a consumer on `link` as the broker would confirm it, and returns its delivery stream.
    mutating func consume(tag: String, on link: ChannelLink) throws -> DeliveryStream {
        let (deliveries, sink) = DeliveryStream.makeStream()
        let (started, _) = call(.consume(queue: "q", tag: tag, exclusive: false, arguments: [:], deliveries: sink), on: link)
        _ = receive(.method(channel: link.id, .answer(.consuming)))
        _ = try started.value.get()
        return deliveries
    }

    /// The method and content header frames of one message to a consumer, its body of `bodySize` bytes to come.
    mutating func beginDelivery(
        bodySize: Int, tag deliveryTag: UInt64, to consumerTag: String, on channel: UInt16
    ) -> [ConnectionAction] {
        receive(
            .method(
                channel: channel,
                .deliver(
                    AMQPDelivery(body: [], exchange: "", routingKey: "q", deliveryTag: deliveryTag, consumerTag: consumerTag))))
            + receive(.header(channel: channel, properties: MessageProperties(), bodySize: UInt64(bodySize)))
    }

    /// The method, content header and body frames of one message to a consumer.
    mutating func deliver(
        _ body: [UInt8], tag deliveryTag: UInt64, to consumerTag: String, on channel: UInt16
    ) -> [ConnectionAction] {
        var actions = beginDelivery(bodySize: body.count, tag: deliveryTag, to: consumerTag, on: channel)
        if !body.isEmpty {
            actions += receiveBody(body, on: channel)
        }
        return actions
    }

    /// The state machine asked for something else than the test expected.
    struct Unexpected: Error {
        let actions: [String]
        init(_ actions: [ConnectionAction]) { self.actions = actions.summaries }
    }
}
