import CRabbitMQ

// Frames as librabbitmq decoded them, copied into the Swift values the state machine reads. Decoded memory lives in
// librabbitmq's pools until amqp_maybe_release_buffers; only a body fragment is passed on uncopied, and the state
// machine copies it while handling the frame.

extension IncomingFrame {
    init(_ frame: amqp_frame_t) {
        switch Int32(frame.frame_type) {
        case AMQP_FRAME_METHOD:
            let method = frame.payload.method
            self = frame.channel == 0 ? IncomingFrame(connection: method) : .method(channel: frame.channel, BrokerMethod(method))
        case AMQP_FRAME_HEADER:
            let header = frame.payload.properties
            self = .header(
                channel: frame.channel,
                properties: MessageProperties(header.decoded.assumingMemoryBound(to: amqp_basic_properties_t.self).pointee),
                bodySize: header.body_size)
        case AMQP_FRAME_BODY:
            let fragment = frame.payload.body_fragment
            self = .body(
                channel: frame.channel,
                UnsafeRawBufferPointer(start: fragment.len > 0 ? fragment.bytes : nil, count: fragment.len))
        default:
            self = .heartbeat
        }
    }

    private init(connection method: amqp_method_t) {
        switch method.id {
        case AMQP_CONNECTION_CLOSE_METHOD:
            self = .connectionClose(.closing(method))
        case AMQP_CONNECTION_CLOSE_OK_METHOD:
            self = .connectionCloseOK
        case AMQP_CONNECTION_BLOCKED_METHOD:
            self = .blocked(reason: String(method.decoded.assumingMemoryBound(to: amqp_connection_blocked_t.self).pointee.reason))
        case AMQP_CONNECTION_UNBLOCKED_METHOD:
            self = .unblocked
        default:
            self = .otherConnectionMethod(id: method.id)
        }
    }
}

extension BrokerMethod {
    init(_ method: amqp_method_t) {
        switch method.id {
        case AMQP_BASIC_DELIVER_METHOD:
            let deliver = method.decoded.assumingMemoryBound(to: amqp_basic_deliver_t.self).pointee
            self = .deliver(
                AMQPDelivery(
                    body: [], exchange: String(deliver.exchange), routingKey: String(deliver.routing_key),
                    redelivered: deliver.redelivered != 0, deliveryTag: deliver.delivery_tag,
                    consumerTag: String(deliver.consumer_tag)))
        case AMQP_BASIC_ACK_METHOD:
            let ack = method.decoded.assumingMemoryBound(to: amqp_basic_ack_t.self).pointee
            self = .ack(deliveryTag: ack.delivery_tag, multiple: ack.multiple != 0)
        case AMQP_BASIC_NACK_METHOD:
            let nack = method.decoded.assumingMemoryBound(to: amqp_basic_nack_t.self).pointee
            self = .nack(deliveryTag: nack.delivery_tag, multiple: nack.multiple != 0)
        case AMQP_BASIC_RETURN_METHOD:
            let returned = method.decoded.assumingMemoryBound(to: amqp_basic_return_t.self).pointee
            self = .returned(
                replyCode: returned.reply_code, replyText: String(returned.reply_text),
                AMQPDelivery(
                    body: [], exchange: String(returned.exchange), routingKey: String(returned.routing_key),
                    deliveryTag: 0, consumerTag: ""))
        case AMQP_BASIC_CANCEL_METHOD:
            let cancel = method.decoded.assumingMemoryBound(to: amqp_basic_cancel_t.self).pointee
            self = .cancel(consumerTag: String(cancel.consumer_tag), noWait: cancel.nowait != 0)
        case AMQP_CHANNEL_CLOSE_METHOD:
            self = .close(.closing(method))
        default:
            self = .answer(MethodAnswer(method))
        }
    }
}

extension MethodAnswer {
    init(_ method: amqp_method_t) {
        switch method.id {
        case AMQP_CHANNEL_OPEN_OK_METHOD: self = .channelOpened
        case AMQP_CHANNEL_CLOSE_OK_METHOD: self = .channelClosed
        case AMQP_EXCHANGE_DECLARE_OK_METHOD: self = .exchangeDeclared
        case AMQP_EXCHANGE_DELETE_OK_METHOD: self = .exchangeDeleted
        case AMQP_QUEUE_DECLARE_OK_METHOD:
            let ok = method.decoded.assumingMemoryBound(to: amqp_queue_declare_ok_t.self).pointee
            self = .queueDeclared(
                QueueDeclareResult(name: String(ok.queue), messageCount: ok.message_count, consumerCount: ok.consumer_count))
        case AMQP_QUEUE_BIND_OK_METHOD: self = .queueBound
        case AMQP_EXCHANGE_BIND_OK_METHOD: self = .exchangeBound
        case AMQP_QUEUE_PURGE_OK_METHOD:
            self = .queuePurged(
                messageCount: method.decoded.assumingMemoryBound(to: amqp_queue_purge_ok_t.self).pointee.message_count)
        case AMQP_QUEUE_DELETE_OK_METHOD:
            self = .queueDeleted(
                messageCount: method.decoded.assumingMemoryBound(to: amqp_queue_delete_ok_t.self).pointee.message_count)
        case AMQP_BASIC_QOS_OK_METHOD: self = .qosSet
        case AMQP_CONFIRM_SELECT_OK_METHOD: self = .confirmsSelected
        case AMQP_BASIC_CONSUME_OK_METHOD: self = .consuming
        case AMQP_BASIC_CANCEL_OK_METHOD: self = .cancelled
        case AMQP_BASIC_GET_OK_METHOD:
            let got = method.decoded.assumingMemoryBound(to: amqp_basic_get_ok_t.self).pointee
            self = .got(
                AMQPDelivery(
                    body: [], exchange: String(got.exchange), routingKey: String(got.routing_key),
                    redelivered: got.redelivered != 0, deliveryTag: got.delivery_tag, consumerTag: ""))
        case AMQP_BASIC_GET_EMPTY_METHOD: self = .gotNothing
        default: self = .other(id: method.id)
        }
    }
}
