import CRabbitMQ

// Synchronous channel methods on the wire: the I/O thread encodes them with the pass's frames and the state machine
// matches the broker's reply among the frames read (``ChannelMethod/isAnswered(by:)``), so replies, deliveries and
// confirms are handled in the order the broker sent them and the thread never blocks waiting for a reply.

extension IOLoop {
    /// Encodes `method` (its strings and tables in the arena) into the outgoing frames; returns librabbitmq's
    /// status, which is not `AMQP_STATUS_OK` only when nothing was encoded.
    func encode(_ method: ChannelMethod, on channel: UInt16) -> Int32 {
        func frame<Method: BitwiseCopyable>(_ id: amqp_method_number_t, _ decoded: Method) -> Int32 {
            var decoded = decoded
            return output.appendMethod(id, &decoded, channel: channel)
        }
        switch method {
        case .open:
            return frame(AMQP_CHANNEL_OPEN_METHOD, amqp_channel_open_t(out_of_band: amqp_empty_bytes))
        case .close:
            return frame(
                AMQP_CHANNEL_CLOSE_METHOD,
                amqp_channel_close_t(
                    reply_code: UInt16(AMQP_REPLY_SUCCESS), reply_text: arena.bytes("OK"), class_id: 0, method_id: 0))
        case .declareExchange(let name, let type, let durable, let autoDelete, let passive, let arguments):
            return frame(
                AMQP_EXCHANGE_DECLARE_METHOD,
                amqp_exchange_declare_t(
                    ticket: 0, exchange: arena.bytes(name), type: arena.bytes(type), passive: flag(passive),
                    durable: flag(durable), auto_delete: flag(autoDelete), internal: 0, nowait: 0,
                    arguments: arena.table(arguments)))
        case .deleteExchange(let name, let ifUnused):
            return frame(
                AMQP_EXCHANGE_DELETE_METHOD,
                amqp_exchange_delete_t(ticket: 0, exchange: arena.bytes(name), if_unused: flag(ifUnused), nowait: 0))
        case .declareQueue(let name, let durable, let exclusive, let autoDelete, let passive, let arguments):
            return frame(
                AMQP_QUEUE_DECLARE_METHOD,
                amqp_queue_declare_t(
                    ticket: 0, queue: arena.bytes(name), passive: flag(passive), durable: flag(durable),
                    exclusive: flag(exclusive), auto_delete: flag(autoDelete), nowait: 0,
                    arguments: arena.table(arguments)))
        case .bindQueue(let queue, let exchange, let routingKey, let arguments):
            return frame(
                AMQP_QUEUE_BIND_METHOD,
                amqp_queue_bind_t(
                    ticket: 0, queue: arena.bytes(queue), exchange: arena.bytes(exchange),
                    routing_key: arena.bytes(routingKey), nowait: 0, arguments: arena.table(arguments)))
        case .bindExchange(let destination, let source, let routingKey, let arguments):
            return frame(
                AMQP_EXCHANGE_BIND_METHOD,
                amqp_exchange_bind_t(
                    ticket: 0, destination: arena.bytes(destination), source: arena.bytes(source),
                    routing_key: arena.bytes(routingKey), nowait: 0, arguments: arena.table(arguments)))
        case .purgeQueue(let name):
            return frame(AMQP_QUEUE_PURGE_METHOD, amqp_queue_purge_t(ticket: 0, queue: arena.bytes(name), nowait: 0))
        case .deleteQueue(let name, let ifUnused, let ifEmpty):
            return frame(
                AMQP_QUEUE_DELETE_METHOD,
                amqp_queue_delete_t(
                    ticket: 0, queue: arena.bytes(name), if_unused: flag(ifUnused), if_empty: flag(ifEmpty), nowait: 0))
        case .qos(let prefetchCount):
            return frame(
                AMQP_BASIC_QOS_METHOD, amqp_basic_qos_t(prefetch_size: 0, prefetch_count: prefetchCount, global: 0))
        case .selectConfirms:
            return frame(AMQP_CONFIRM_SELECT_METHOD, amqp_confirm_select_t(nowait: 0))
        case .consume(let queue, let tag, let exclusive, let arguments, _):
            return frame(
                AMQP_BASIC_CONSUME_METHOD,
                amqp_basic_consume_t(
                    ticket: 0, queue: arena.bytes(queue), consumer_tag: arena.bytes(tag), no_local: 0, no_ack: 0,
                    exclusive: flag(exclusive), nowait: 0, arguments: arena.table(arguments)))
        case .cancel(let tag):
            return frame(AMQP_BASIC_CANCEL_METHOD, amqp_basic_cancel_t(consumer_tag: arena.bytes(tag), nowait: 0))
        case .get(let queue):
            return frame(AMQP_BASIC_GET_METHOD, amqp_basic_get_t(ticket: 0, queue: arena.bytes(queue), no_ack: 0))
        }
    }

    private func flag(_ value: Bool) -> amqp_boolean_t { value ? 1 : 0 }
}
