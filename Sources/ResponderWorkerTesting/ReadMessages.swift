import AMQP
import NotificationEvents
import Responder
import ResponderIntake

/// The messages the harness read from its queues, kept by the input that caused them until that input's response
/// is asked for.
struct ReadMessages {
    /// Outputs by the event id in their correlation id, in the order they were read.
    private var outputs: [String: [OutboundMessage]] = [:]
    /// Dead letters by their message id (the input's).
    private var deadLetters: [String: [AMQPDelivery]] = [:]

    mutating func keep(_ delivery: AMQPDelivery) {
        let properties = delivery.properties
        guard let cause = properties.correlationID else { return }
        outputs[cause, default: []].append(
            OutboundMessage(
                exchange: delivery.exchange, routingKey: delivery.routingKey, body: delivery.body,
                properties: properties))
    }

    mutating func keepDeadLetter(_ delivery: AMQPDelivery) {
        deadLetters[delivery.properties.messageID ?? "", default: []].append(delivery)
    }

    /// The outputs of the event `id`: the updates and device commands as read, then the sent messages in the order
    /// the handlers sent them (they are read from one queue per destination). A message read twice (a destination
    /// on the output exchange) counts once.
    mutating func claimOutputs(causedBy id: String) -> [OutboundMessage] {
        var seen: Set<String> = []
        let read = (outputs.removeValue(forKey: id) ?? []).filter { seen.insert($0.properties.messageID ?? "").inserted }
        let sentIDs = (0..<read.count).map { SentMessage.messageID(causedBy: id, number: $0 + 1) }
        let sent = sentIDs.compactMap { sentID in read.first { $0.properties.messageID == sentID } }
        return read.filter { !sentIDs.contains($0.properties.messageID ?? "") } + sent
    }

    /// Why the input `id` was dead-lettered, or nil when its dead letter was not read yet.
    mutating func claimDeadLetter(of id: String) throws -> DeadLetterInfo? {
        guard let delivery = deadLetters[id]?.first else { return nil }
        deadLetters[id]?.removeFirst()
        return try DeadLetterInfo(headers: delivery.properties.jsonHeaders)
    }
}
