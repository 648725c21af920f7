import CRabbitMQ

extension IOLoop {
    /// Handles one frame, in the order the broker sent them. Everything needed later is copied out of
    /// librabbitmq's memory here.
    func dispatch(_ frame: amqp_frame_t) {
        switch Int32(frame.frame_type) {
        case AMQP_FRAME_METHOD:
            if frame.channel == 0 {
                connectionMethod(frame.payload.method)
            } else if let channel = channels[Int(frame.channel)] {
                channelMethod(frame.payload.method, on: channel)
            }
        case AMQP_FRAME_HEADER:
            guard let channel = channels[Int(frame.channel)], var message = channel.incoming.take() else { return }
            let header = frame.payload.properties
            message.delivery.properties = BasicProperties(
                header.decoded.assumingMemoryBound(to: amqp_basic_properties_t.self).pointee)
            message.delivery.bodySize = header.body_size
            if let limit = core.configuration.maxBodySize, header.body_size > UInt64(max(0, limit)) {
                // Read and discarded, never buffered: the delivery says how large the body was.
                message.delivery.isBodyDropped = true
            } else {
                message.delivery.body.reserveCapacity(Int(clamping: header.body_size))
            }
            message.remaining = header.body_size
            receive(message, on: channel)
        case AMQP_FRAME_BODY:
            guard let channel = channels[Int(frame.channel)], var message = channel.incoming.take() else { return }
            let fragment = frame.payload.body_fragment
            if fragment.len > 0, let bytes = fragment.bytes, !message.delivery.isBodyDropped {
                message.delivery.body.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: fragment.len))
            }
            message.remaining -= min(message.remaining, UInt64(fragment.len))
            receive(message, on: channel)
        default:
            // Heartbeats librabbitmq queued while it was writing; their arrival already counted.
            break
        }
    }

    private func connectionMethod(_ method: amqp_method_t) {
        switch method.id {
        case AMQP_CONNECTION_CLOSE_METHOD:
            var closeOK = amqp_connection_close_ok_t()
            _ = amqp_send_method(state, 0, AMQP_CONNECTION_CLOSE_OK_METHOD, &closeOK)
            if case .closing = phase {
                finish(nil)
            } else {
                finish(.closing(method))
            }
        case AMQP_CONNECTION_CLOSE_OK_METHOD:
            finish(nil)
        case AMQP_CONNECTION_BLOCKED_METHOD:
            let reason = String(method.decoded.assumingMemoryBound(to: amqp_connection_blocked_t.self).pointee.reason)
            logger.warning("AMQP connection blocked by the broker", metadata: ["reason": "\(reason)"])
            if heldPublishes == nil { heldPublishes = [] }
            core.eventSink.yield(.blocked(reason: reason))
        case AMQP_CONNECTION_UNBLOCKED_METHOD:
            logger.info("AMQP connection unblocked by the broker")
            let held = heldPublishes ?? []
            heldPublishes = nil
            for confirmation in held {
                publish(confirmation)
            }
            core.eventSink.yield(.unblocked)
        default:
            logger.debug("AMQP connection method ignored", metadata: ["method": "\(method.id)"])
        }
    }

    private func channelMethod(_ method: amqp_method_t, on channel: ChannelState) {
        switch method.id {
        case AMQP_BASIC_DELIVER_METHOD:
            let deliver = method.decoded.assumingMemoryBound(to: amqp_basic_deliver_t.self).pointee
            channel.incoming = IncomingMessage(
                purpose: .delivery,
                delivery: AMQPDelivery(
                    body: [], exchange: String(deliver.exchange), routingKey: String(deliver.routing_key),
                    redelivered: deliver.redelivered != 0, deliveryTag: deliver.delivery_tag,
                    consumerTag: String(deliver.consumer_tag)))
        case AMQP_BASIC_ACK_METHOD:
            let ack = method.decoded.assumingMemoryBound(to: amqp_basic_ack_t.self).pointee
            confirm(ack.delivery_tag, multiple: ack.multiple != 0, outcome: nil, on: channel)
        case AMQP_BASIC_NACK_METHOD:
            let nack = method.decoded.assumingMemoryBound(to: amqp_basic_nack_t.self).pointee
            confirm(nack.delivery_tag, multiple: nack.multiple != 0, outcome: .nacked, on: channel)
        case AMQP_BASIC_RETURN_METHOD:
            let returned = method.decoded.assumingMemoryBound(to: amqp_basic_return_t.self).pointee
            channel.incoming = IncomingMessage(
                purpose: .returned(replyCode: returned.reply_code, replyText: String(returned.reply_text)),
                delivery: AMQPDelivery(
                    body: [], exchange: String(returned.exchange), routingKey: String(returned.routing_key),
                    deliveryTag: 0, consumerTag: ""))
        case AMQP_BASIC_CANCEL_METHOD:
            let cancel = method.decoded.assumingMemoryBound(to: amqp_basic_cancel_t.self).pointee
            let tag = String(cancel.consumer_tag)
            logger.warning("AMQP consumer cancelled by the broker", metadata: ["consumer": "\(tag)"])
            if let feed = channel.consumers.removeValue(forKey: tag) {
                requeue(feed.finish(throwing: nil), on: channel)
            }
            if cancel.nowait == 0 {
                var cancelOK = amqp_basic_cancel_ok_t(consumer_tag: cancel.consumer_tag)
                let status = amqp_send_method(state, channel.id, AMQP_BASIC_CANCEL_OK_METHOD, &cancelOK)
                if status != AMQP_STATUS_OK.rawValue { finish(.library(status)) }
            }
        case AMQP_CHANNEL_CLOSE_METHOD:
            let error = AMQPError.closing(method)
            logger.warning("AMQP channel closed by the broker", metadata: ["channel": "\(channel.id)", "error": "\(error)"])
            var closeOK = amqp_channel_close_ok_t()
            let status = amqp_send_method(state, channel.id, AMQP_CHANNEL_CLOSE_OK_METHOD, &closeOK)
            if status != AMQP_STATUS_OK.rawValue { finish(.library(status)) }
            remove(channel, failing: error)
        default:
            answer(method, on: channel)
        }
    }

    /// A reply to the channel's call on the wire: completes it and sends the next one.
    private func answer(_ method: amqp_method_t, on channel: ChannelState) {
        guard let call = channel.calls.first, call.method.isAnswered(by: method.id) else {
            logger.debug("AMQP channel method ignored", metadata: ["channel": "\(channel.id)", "method": "\(method.id)"])
            return
        }
        switch call.method {
        case .get where method.id == AMQP_BASIC_GET_OK_METHOD:
            // The call stays first until its content arrived.
            let got = method.decoded.assumingMemoryBound(to: amqp_basic_get_ok_t.self).pointee
            channel.incoming = IncomingMessage(
                purpose: .get,
                delivery: AMQPDelivery(
                    body: [], exchange: String(got.exchange), routingKey: String(got.routing_key),
                    redelivered: got.redelivered != 0, deliveryTag: got.delivery_tag, consumerTag: ""))
            return
        case .consume(_, let tag, _, _, let deliveries):
            channel.consumers[tag] = ConsumerFeed(stream: deliveries)
        case .cancel(let tag):
            if let feed = channel.consumers.removeValue(forKey: tag) {
                requeue(feed.finish(throwing: nil), on: channel)
            }
        case .close:
            channel.calls.removeFirst()
            remove(channel, failing: .closed)
            call.reply(.success(.done))
            return
        default:
            break
        }
        completeFirstCall(of: channel, with: MethodReply(call.method, method))
    }

    /// Answers the channel's oldest call, then sends the next one waiting.
    private func completeFirstCall(of channel: ChannelState, with reply: MethodReply) {
        let call = channel.calls.removeFirst()
        call.reply(.success(reply))
        sendFirstCall(of: channel)
    }

    /// Resolves publisher confirms; a basic.return just before names the publish this ack or nack is for.
    private func confirm(_ tag: UInt64, multiple: Bool, outcome: AMQPError?, on channel: ChannelState) {
        let returned = channel.returned.take()
        channel.confirms?.resolve(tag, multiple: multiple) { sequence in
            sequence == tag ? returned ?? outcome : outcome
        }
    }

    /// Keeps reading a message's content, and hands it on once the body is complete.
    private func receive(_ message: IncomingMessage, on channel: ChannelState) {
        guard message.remaining == 0 else {
            channel.incoming = message
            return
        }
        switch message.purpose {
        case .delivery:
            deliver(message.delivery, on: channel)
        case .get:
            completeFirstCall(of: channel, with: .got(message.delivery))
        case .returned(let replyCode, let replyText):
            if channel.confirms != nil {
                channel.returned = .returned(replyCode: replyCode, replyText: replyText)
            } else {
                logger.warning(
                    "AMQP mandatory publish returned on a channel without publisher confirms",
                    metadata: ["exchange": "\(message.delivery.exchange)", "routing_key": "\(message.delivery.routingKey)",
                               "reply": "\(replyCode) \(replyText)"])
            }
        }
    }

    /// Queues a delivery for its consumer; ``handOverDeliveries()`` passes them on after the read pass.
    private func deliver(_ delivery: AMQPDelivery, on channel: ChannelState) {
        guard let feed = channel.consumers[delivery.consumerTag] else {
            requeue([delivery], on: channel)
            return
        }
        if feed.append(delivery) {
            feedsToFlush.append((channel, feed))
        }
    }

    /// Hands each consumer the deliveries of this read pass, in one batch.
    func handOverDeliveries() {
        for (channel, feed) in feedsToFlush {
            requeue(feed.flush(), on: channel)
        }
        feedsToFlush.removeAll(keepingCapacity: true)
    }

    /// Sends deliveries nobody takes any more (cancelled consumer, abandoned iteration) back to their queue at
    /// once, rather than leaving them unacknowledged until the channel closes.
    private func requeue(_ deliveries: [AMQPDelivery], on channel: ChannelState) {
        guard channels[Int(channel.id)] === channel else { return }
        for delivery in deliveries {
            let status = amqp_basic_reject(state, channel.id, delivery.deliveryTag, 1)
            if status != AMQP_STATUS_OK.rawValue {
                finish(.library(status))
                return
            }
        }
    }

    /// Closes the channel's state: everything pending on it ends with `error`.
    private func remove(_ channel: ChannelState, failing error: AMQPError) {
        channels[Int(channel.id)] = nil
        channel.fail(error)
    }
}
