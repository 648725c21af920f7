import CRabbitMQ

// Synchronous channel methods on the wire: the I/O thread sends them with amqp_send_method and matches the
// broker's reply among the frames it reads, so replies, deliveries and confirms are handled in the order the
// broker sent them and the thread never blocks waiting for a reply.

extension ChannelMethod {
    /// Whether `id` is the broker's reply to this method.
    func isAnswered(by id: amqp_method_number_t) -> Bool {
        switch self {
        case .open: id == AMQP_CHANNEL_OPEN_OK_METHOD
        case .close: id == AMQP_CHANNEL_CLOSE_OK_METHOD
        case .declareExchange: id == AMQP_EXCHANGE_DECLARE_OK_METHOD
        case .deleteExchange: id == AMQP_EXCHANGE_DELETE_OK_METHOD
        case .declareQueue: id == AMQP_QUEUE_DECLARE_OK_METHOD
        case .bindQueue: id == AMQP_QUEUE_BIND_OK_METHOD
        case .bindExchange: id == AMQP_EXCHANGE_BIND_OK_METHOD
        case .purgeQueue: id == AMQP_QUEUE_PURGE_OK_METHOD
        case .deleteQueue: id == AMQP_QUEUE_DELETE_OK_METHOD
        case .qos: id == AMQP_BASIC_QOS_OK_METHOD
        case .selectConfirms: id == AMQP_CONFIRM_SELECT_OK_METHOD
        case .consume: id == AMQP_BASIC_CONSUME_OK_METHOD
        case .cancel: id == AMQP_BASIC_CANCEL_OK_METHOD
        case .get: id == AMQP_BASIC_GET_OK_METHOD || id == AMQP_BASIC_GET_EMPTY_METHOD
        }
    }
}

extension MethodReply {
    /// The reply to `method`, copied out of the decoded `reply`.
    init(_ method: ChannelMethod, _ reply: amqp_method_t) {
        switch method {
        case .declareQueue:
            let ok = reply.decoded.assumingMemoryBound(to: amqp_queue_declare_ok_t.self).pointee
            self = .queueDeclared(
                QueueDeclareResult(name: String(ok.queue), messageCount: ok.message_count, consumerCount: ok.consumer_count))
        case .purgeQueue:
            self = .messageCount(reply.decoded.assumingMemoryBound(to: amqp_queue_purge_ok_t.self).pointee.message_count)
        case .deleteQueue:
            self = .messageCount(reply.decoded.assumingMemoryBound(to: amqp_queue_delete_ok_t.self).pointee.message_count)
        case .get:
            self = .got(nil)
        case .open, .close, .declareExchange, .deleteExchange, .bindQueue, .bindExchange, .qos, .selectConfirms, .consume, .cancel:
            self = .done
        }
    }
}

extension IOLoop {
    /// Encodes `method` in the arena and writes it; returns librabbitmq's status.
    func send(_ method: ChannelMethod, on channel: UInt16) -> Int32 {
        func send<Method: BitwiseCopyable>(_ id: amqp_method_number_t, _ decoded: Method) -> Int32 {
            var decoded = decoded
            return withUnsafeMutablePointer(to: &decoded) { amqp_send_method(state, channel, id, $0) }
        }
        switch method {
        case .open:
            return send(AMQP_CHANNEL_OPEN_METHOD, amqp_channel_open_t(out_of_band: amqp_empty_bytes))
        case .close:
            return send(
                AMQP_CHANNEL_CLOSE_METHOD,
                amqp_channel_close_t(
                    reply_code: UInt16(AMQP_REPLY_SUCCESS), reply_text: arena.bytes("OK"), class_id: 0, method_id: 0))
        case .declareExchange(let name, let type, let durable, let autoDelete, let passive, let arguments):
            return send(
                AMQP_EXCHANGE_DECLARE_METHOD,
                amqp_exchange_declare_t(
                    ticket: 0, exchange: arena.bytes(name), type: arena.bytes(type), passive: flag(passive),
                    durable: flag(durable), auto_delete: flag(autoDelete), internal: 0, nowait: 0,
                    arguments: arena.table(arguments)))
        case .deleteExchange(let name, let ifUnused):
            return send(
                AMQP_EXCHANGE_DELETE_METHOD,
                amqp_exchange_delete_t(ticket: 0, exchange: arena.bytes(name), if_unused: flag(ifUnused), nowait: 0))
        case .declareQueue(let name, let durable, let exclusive, let autoDelete, let passive, let arguments):
            return send(
                AMQP_QUEUE_DECLARE_METHOD,
                amqp_queue_declare_t(
                    ticket: 0, queue: arena.bytes(name), passive: flag(passive), durable: flag(durable),
                    exclusive: flag(exclusive), auto_delete: flag(autoDelete), nowait: 0,
                    arguments: arena.table(arguments)))
        case .bindQueue(let queue, let exchange, let routingKey, let arguments):
            return send(
                AMQP_QUEUE_BIND_METHOD,
                amqp_queue_bind_t(
                    ticket: 0, queue: arena.bytes(queue), exchange: arena.bytes(exchange),
                    routing_key: arena.bytes(routingKey), nowait: 0, arguments: arena.table(arguments)))
        case .bindExchange(let destination, let source, let routingKey, let arguments):
            return send(
                AMQP_EXCHANGE_BIND_METHOD,
                amqp_exchange_bind_t(
                    ticket: 0, destination: arena.bytes(destination), source: arena.bytes(source),
                    routing_key: arena.bytes(routingKey), nowait: 0, arguments: arena.table(arguments)))
        case .purgeQueue(let name):
            return send(AMQP_QUEUE_PURGE_METHOD, amqp_queue_purge_t(ticket: 0, queue: arena.bytes(name), nowait: 0))
        case .deleteQueue(let name, let ifUnused, let ifEmpty):
            return send(
                AMQP_QUEUE_DELETE_METHOD,
                amqp_queue_delete_t(
                    ticket: 0, queue: arena.bytes(name), if_unused: flag(ifUnused), if_empty: flag(ifEmpty), nowait: 0))
        case .qos(let prefetchCount):
            return send(
                AMQP_BASIC_QOS_METHOD, amqp_basic_qos_t(prefetch_size: 0, prefetch_count: prefetchCount, global: 0))
        case .selectConfirms:
            return send(AMQP_CONFIRM_SELECT_METHOD, amqp_confirm_select_t(nowait: 0))
        case .consume(let queue, let tag, let exclusive, let arguments, _):
            return send(
                AMQP_BASIC_CONSUME_METHOD,
                amqp_basic_consume_t(
                    ticket: 0, queue: arena.bytes(queue), consumer_tag: arena.bytes(tag), no_local: 0, no_ack: 0,
                    exclusive: flag(exclusive), nowait: 0, arguments: arena.table(arguments)))
        case .cancel(let tag):
            return send(AMQP_BASIC_CANCEL_METHOD, amqp_basic_cancel_t(consumer_tag: arena.bytes(tag), nowait: 0))
        case .get(let queue):
            return send(AMQP_BASIC_GET_METHOD, amqp_basic_get_t(ticket: 0, queue: arena.bytes(queue), no_ack: 0))
        }
    }

    private func flag(_ value: Bool) -> amqp_boolean_t { value ? 1 : 0 }
}
