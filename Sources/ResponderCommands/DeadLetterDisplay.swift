import AMQP
import NotificationEvents
import Responder
import ResponderIntake
import ResponderWorker

/// One dead letter as `redrive --show` prints it: a fixture line (the shape `record` writes), headers and all, with
/// every `userText` in its body replaced by how many characters it had: what a user typed stays private even from
/// the operator's terminal.
enum DeadLetterDisplay {
    /// The fixture line of `message`, its body redacted.
    static func line(_ message: AMQPDelivery) -> String {
        let inbound = message.message
        var body = inbound.body
        if let json = try? EventCodec.decode(JSONValue.self, from: body) {
            body = EventCodec.encode(redacted(json))
        } else if !body.isEmpty {
            // Not JSON: its bytes may hold anything, so they are not shown.
            body = EventCodec.encode(JSONValue.string("(\(body.count) bytes that are not JSON, not shown)"))
        }
        let line = FixtureLine(
            exchange: inbound.exchange, routingKey: inbound.routingKey, redelivered: inbound.redelivered,
            properties: inbound.properties, bodyBytes: body)
        return String(decoding: EventCodec.encode(line), as: UTF8.self)
    }

    /// `value` with each `userText` member's string replaced by its length, at any depth.
    static func redacted(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            var result: [String: JSONValue] = [:]
            for (key, member) in members {
                if key == "userText", case .string(let text) = member {
                    result[key] = .string("(\(text.count) characters, not shown)")
                } else {
                    result[key] = redacted(member)
                }
            }
            return .object(result)
        case .array(let elements):
            return .array(elements.map(redacted))
        default:
            return value
        }
    }
}
