@testable import AMQP

extension ConnectionAction {
    /// A short text naming the action and its channel, for comparing what the state machine asked for.
    var summary: String {
        switch self {
        case .send(let method, let channel): "send \(method.name) on \(channel)"
        case .publish(_, let channel, let resolveWhenWritten):
            "publish on \(channel)\(resolveWhenWritten ? " unconfirmed" : "")"
        case .settle(let settlement, let channel): "settle \(settlement) on \(channel)"
        case .requeue(let tags, let channel): "requeue \(tags) on \(channel)"
        case .acceptCancel(let tag, let channel): "cancel-ok \(tag) on \(channel)"
        case .acceptChannelClose(let channel): "channel.close-ok on \(channel)"
        case .acceptConnectionClose: "connection.close-ok"
        case .closeConnection: "connection.close"
        case .announce(let event): "announce \(event)"
        }
    }
}

extension [ConnectionAction] {
    var summaries: [String] { map(\.summary) }
}

extension ChannelMethod {
    /// The method's name without its arguments.
    var name: String {
        switch self {
        case .open: "open"
        case .close: "close"
        case .declareExchange: "declareExchange"
        case .deleteExchange: "deleteExchange"
        case .declareQueue: "declareQueue"
        case .bindQueue: "bindQueue"
        case .bindExchange: "bindExchange"
        case .purgeQueue: "purgeQueue"
        case .deleteQueue: "deleteQueue"
        case .qos: "qos"
        case .selectConfirms: "selectConfirms"
        case .consume: "consume"
        case .cancel: "cancel"
        case .get: "get"
        }
    }
}

extension PublishConfirmation {
    /// The publish's outcome: `nil` once confirmed, else the error.
    var outcome: AMQPError? {
        get async {
            do throws(AMQPError) {
                try await confirmed()
                return nil
            } catch {
                return error
            }
        }
    }
}
