// Which reply answers which synchronous method. Only the first pending call of a channel is on the wire, so a
// reply either answers it or is ignored.

extension ChannelMethod {
    /// Whether `answer` is the broker's reply to this method.
    func isAnswered(by answer: MethodAnswer) -> Bool {
        switch (self, answer) {
        case (.open, .channelOpened), (.close, .channelClosed), (.declareExchange, .exchangeDeclared),
            (.deleteExchange, .exchangeDeleted), (.declareQueue, .queueDeclared), (.bindQueue, .queueBound),
            (.bindExchange, .exchangeBound), (.purgeQueue, .queuePurged), (.deleteQueue, .queueDeleted), (.qos, .qosSet),
            (.selectConfirms, .confirmsSelected), (.consume, .consuming), (.cancel, .cancelled), (.get, .got),
            (.get, .gotNothing):
            true
        default:
            false
        }
    }

    /// Whether the broker closing the channel with `error` is an answer the caller asked for rather than a fault:
    /// 404 NOT_FOUND to a passive declaration, which only asks whether the queue or exchange exists.
    func expectsClose(_ error: AMQPError) -> Bool {
        guard case .channelClosed(404, _) = error else { return false }
        switch self {
        case .declareQueue(_, _, _, _, let passive, _), .declareExchange(_, _, _, _, let passive, _): return passive
        default: return false
        }
    }
}

extension MethodReply {
    /// What the caller of a method gets for `answer`; basic.get-ok is answered only once its content arrived.
    init(_ answer: MethodAnswer) {
        switch answer {
        case .queueDeclared(let result): self = .queueDeclared(result)
        case .queuePurged(let count), .queueDeleted(let count): self = .messageCount(count)
        case .gotNothing: self = .got(nil)
        case .got(let delivery): self = .got(delivery)
        case .channelOpened, .channelClosed, .exchangeDeclared, .exchangeDeleted, .queueBound, .exchangeBound, .qosSet,
            .confirmsSelected, .consuming, .cancelled, .other:
            self = .done
        }
    }
}
