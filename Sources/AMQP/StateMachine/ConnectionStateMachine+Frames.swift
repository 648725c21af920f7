import Logging

extension ConnectionStateMachine {
    /// Handles one frame, in the order the broker sent them.
    mutating func receive(_ frame: IncomingFrame, into actions: inout [ConnectionAction]) {
        switch frame {
        case .connectionClose(let error):
            actions.append(.acceptConnectionClose)
            finish(isClosing ? nil : error)
        case .connectionCloseOK:
            finish(nil)
        case .blocked(let reason):
            logger.warning("AMQP connection blocked by the broker", metadata: ["reason": "\(reason)"])
            if heldPublishes == nil { heldPublishes = [] }
            actions.append(.announce(.blocked(reason: reason)))
        case .unblocked:
            logger.info("AMQP connection unblocked by the broker")
            let held = heldPublishes ?? []
            heldPublishes = nil
            for confirmation in held {
                publish(confirmation, into: &actions)
            }
            actions.append(.announce(.unblocked))
        case .otherConnectionMethod(let id):
            logger.debug("AMQP connection method ignored", metadata: ["method": "\(id)"])
        case .method(let id, let method):
            // A frame for a channel that is not open (closed by now, or never opened) is dropped.
            guard let channel = self.channel(number: id) else { return }
            receive(method, on: channel, into: &actions)
        case .header(let id, let properties, let bodySize):
            guard let channel = self.channel(number: id), var message = channel.incoming.take() else { return }
            message.delivery.message.properties = properties
            message.delivery.bodySize = bodySize
            if let limit = maxBodySize, bodySize > UInt64(max(0, limit)) {
                // Read and discarded, never buffered: the delivery says how large the body was.
                message.delivery.isBodyDropped = true
            } else {
                message.delivery.message.body.reserveCapacity(Int(clamping: bodySize))
            }
            message.remaining = bodySize
            receive(message, on: channel, into: &actions)
        case .body(let id, let fragment):
            guard let channel = self.channel(number: id), var message = channel.incoming.take() else { return }
            // Never more than the content header announced: the body cannot outgrow the size checked against
            // the body limit. Body frames beyond it find no message and are dropped.
            let taken = Int(clamping: min(UInt64(fragment.count), message.remaining))
            if taken > 0, !message.delivery.isBodyDropped {
                message.delivery.message.body.append(contentsOf: UnsafeRawBufferPointer(rebasing: fragment[..<taken]))
            }
            message.remaining -= UInt64(taken)
            receive(message, on: channel, into: &actions)
        case .heartbeat:
            break
        }
    }

    private mutating func receive(_ method: BrokerMethod, on channel: ChannelState, into actions: inout [ConnectionAction]) {
        switch method {
        case .deliver(let delivery):
            channel.incoming = IncomingMessage(purpose: .delivery, delivery: delivery)
        case .ack(let tag, let multiple):
            confirm(tag, multiple: multiple, outcome: nil, on: channel)
        case .nack(let tag, let multiple):
            confirm(tag, multiple: multiple, outcome: .nacked, on: channel)
        case .returned(let replyCode, let replyText, let delivery):
            channel.incoming = IncomingMessage(
                purpose: .returned(replyCode: replyCode, replyText: replyText), delivery: delivery)
        case .cancel(let tag, let noWait):
            logger.warning("AMQP consumer cancelled by the broker", metadata: ["consumer": "\(tag)"])
            if let feed = channel.consumers.removeValue(forKey: tag) {
                requeue(feed.finish(throwing: nil), on: channel, into: &actions)
            }
            if !noWait {
                actions.append(.acceptCancel(consumerTag: tag, channel: channel.id))
            }
        case .close(let error):
            // A close that answers the call on the wire as expected (404 to a passive declaration: the broker's
            // "does not exist") is the caller's answer, not a fault; a healthy start asks about absent shard queues.
            let level: Logger.Level = channel.calls.first?.method.expectsClose(error) == true ? .debug : .warning
            logger.log(
                level: level, "AMQP channel closed by the broker",
                metadata: ["channel": "\(channel.id)", "error": "\(error)"])
            actions.append(.acceptChannelClose(channel: channel.id))
            remove(channel, failing: error)
        case .answer(let answer):
            receive(answer, on: channel, into: &actions)
        }
    }

    /// A reply to the channel's call on the wire: completes it and sends the next one.
    private mutating func receive(_ answer: MethodAnswer, on channel: ChannelState, into actions: inout [ConnectionAction]) {
        guard let call = channel.calls.first, call.method.isAnswered(by: answer) else {
            logger.debug("AMQP channel method ignored", metadata: ["channel": "\(channel.id)", "method": "\(answer)"])
            return
        }
        switch (call.method, answer) {
        case (.get, .got(let delivery)):
            // The call stays first until its content arrived.
            channel.incoming = IncomingMessage(purpose: .get, delivery: delivery)
            return
        case (.consume(_, let tag, _, _, let deliveries), _):
            channel.consumers[tag] = ConsumerFeed(stream: deliveries)
        case (.cancel(let tag), _):
            if let feed = channel.consumers.removeValue(forKey: tag) {
                requeue(feed.finish(throwing: nil), on: channel, into: &actions)
            }
        case (.close, _):
            channel.calls.removeFirst()
            remove(channel, failing: .closed)
            call.reply(.success(.done))
            return
        default:
            break
        }
        completeFirstCall(of: channel, with: MethodReply(answer), into: &actions)
    }

    /// Answers the channel's oldest call, then sends the next one waiting.
    private func completeFirstCall(of channel: ChannelState, with reply: MethodReply, into actions: inout [ConnectionAction]) {
        let call = channel.calls.removeFirst()
        call.reply(.success(reply))
        sendFirstCall(of: channel, into: &actions)
    }

    /// Resolves publisher confirms; a basic.return just before names the publish this ack or nack is for.
    /// A confirm for a sequence number that is not pending (already resolved, never published) changes nothing.
    private func confirm(_ tag: UInt64, multiple: Bool, outcome: AMQPError?, on channel: ChannelState) {
        let returned = channel.returned.take()
        channel.confirms?.resolve(tag, multiple: multiple) { sequence in
            sequence == tag ? returned ?? outcome : outcome
        }
    }

    /// Keeps reading a message's content, and hands it on once the body is complete.
    private mutating func receive(_ message: IncomingMessage, on channel: ChannelState, into actions: inout [ConnectionAction]) {
        guard message.remaining == 0 else {
            channel.incoming = message
            return
        }
        switch message.purpose {
        case .delivery:
            // The one clock read per delivery, as its last frame is taken from this read pass.
            var delivery = message.delivery
            delivery.arrivalTime = .now
            deliver(delivery, on: channel, into: &actions)
        case .get:
            completeFirstCall(of: channel, with: .got(message.delivery), into: &actions)
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

    /// Queues a delivery for its consumer; ``handOverDeliveries(into:)`` passes them on after the read pass.
    private mutating func deliver(_ delivery: AMQPDelivery, on channel: ChannelState, into actions: inout [ConnectionAction]) {
        guard let feed = channel.consumers[delivery.consumerTag] else {
            requeue([delivery], on: channel, into: &actions)
            return
        }
        if feed.append(delivery) {
            feedsToFlush.append((channel, feed))
        }
    }

    /// Hands each consumer the deliveries of this read pass, in one batch. Call after each read pass.
    mutating func handOverDeliveries(into actions: inout [ConnectionAction]) {
        for (channel, feed) in feedsToFlush {
            requeue(feed.flush(), on: channel, into: &actions)
        }
        feedsToFlush.removeAll(keepingCapacity: true)
    }

    /// Sends deliveries nobody takes any more (cancelled consumer, abandoned iteration) back to their queue at
    /// once, rather than leaving them unacknowledged until the channel closes.
    private func requeue(_ deliveries: [AMQPDelivery], on channel: ChannelState, into actions: inout [ConnectionAction]) {
        guard !deliveries.isEmpty, self.channel(number: channel.id) === channel else { return }
        actions.append(.requeue(deliveryTags: deliveries.map(\.deliveryTag), channel: channel.id))
    }

    /// Closes the channel's state: everything pending on it ends with `error`.
    private mutating func remove(_ channel: ChannelState, failing error: AMQPError) {
        channels[Int(channel.id)] = nil
        channel.fail(error)
    }
}
