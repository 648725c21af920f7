import CRabbitMQ
import Glibc

// The I/O side of the state machine: commands go in, and what it asks for is encoded into the pass's outgoing
// frames, which ``IOLoop/flush()`` writes.

extension IOLoop {
    /// Runs every queued command as one batch, then recycles the memory their C structures used.
    func runCommands() {
        core.takeCommands(into: &commands)
        for index in commands.indices {
            if machine.isFinished {
                commands.removeFirst(index)
                return
            }
            machine.execute(commands[index], into: &actions)
            performActions()
        }
        commands.removeAll(keepingCapacity: true)
        arena.recycle()
    }

    /// Does what the state machine asked for, in order. Once a write breaks the connection, the rest goes back to
    /// the state machine undone.
    func performActions() {
        var index = 0
        var connectionBroken = false
        while index < actions.count {
            let action = actions[index]
            index += 1
            if connectionBroken {
                machine.discard(action)
            } else if !perform(action) {
                connectionBroken = true
                machine.discard(action)
            } else if output.count >= Self.flushThreshold {
                // Bounds the memory a pass of large publishes holds.
                connectionBroken = !flush()
            }
        }
        actions.removeAll(keepingCapacity: true)
    }

    /// Encodes what `action` asks for; returns `false` when that failed and ended the connection.
    private func perform(_ action: ConnectionAction) -> Bool {
        switch action {
        case .send(let method, let channel):
            let status = encode(method, on: channel)
            if status == AMQP_STATUS_OK.rawValue { return true }
            // Nothing was encoded: that call fails alone and the state machine asks for the next one.
            machine.callNotSent(on: channel, error: .library(status), into: &actions)
            return true
        case .publish(let confirmation, let channel, let resolveWhenWritten):
            // Any failure ends the connection: with publisher confirms the broker would number the publishes after
            // it differently from the state machine.
            guard let publish = confirmation.request.take() else { return true }
            let status = encode(publish, on: channel)
            guard status == AMQP_STATUS_OK.rawValue else { return broken(status) }
            if resolveWhenWritten { unflushedPublishes.append(confirmation) }
            return true
        case .settle(let settlement, let channel):
            return encode(settlement, on: channel)
        case .requeue(let tags, let channel):
            for tag in tags where !encode(.reject(deliveryTag: tag, requeue: true), on: channel) {
                return false
            }
            return true
        case .acceptCancel(let tag, let channel):
            var cancelOK = amqp_basic_cancel_ok_t(consumer_tag: arena.bytes(tag))
            return encode(AMQP_BASIC_CANCEL_OK_METHOD, &cancelOK, on: channel)
        case .acceptChannelClose(let channel):
            var closeOK = amqp_channel_close_ok_t()
            return encode(AMQP_CHANNEL_CLOSE_OK_METHOD, &closeOK, on: channel)
        case .acceptConnectionClose:
            // The connection ends either way; close-ok goes out now, since nothing is written after the end.
            var closeOK = amqp_connection_close_ok_t()
            _ = output.appendMethod(AMQP_CONNECTION_CLOSE_OK_METHOD, &closeOK, channel: 0)
            flush()
            return true
        case .closeConnection:
            var close = amqp_connection_close_t(
                reply_code: UInt16(AMQP_REPLY_SUCCESS), reply_text: arena.bytes("OK"), class_id: 0, method_id: 0)
            guard output.appendMethod(AMQP_CONNECTION_CLOSE_METHOD, &close, channel: 0) == AMQP_STATUS_OK.rawValue else {
                machine.finish(nil)
                return false
            }
            closeDeadline = .now + core.configuration.connectTimeout
            return true
        case .announce(let event):
            core.eventSink.yield(event)
            return true
        }
    }

    /// Ends the connection with librabbitmq's failure `status`; returns `false` for ``perform(_:)``.
    private func broken(_ status: Int32) -> Bool {
        machine.finish(.library(status))
        return false
    }

    /// Encodes a method the connection cannot do without; a failure ends it.
    private func encode<Method: BitwiseCopyable>(
        _ id: amqp_method_number_t, _ method: inout Method, on channel: UInt16
    ) -> Bool {
        let status = output.appendMethod(id, &method, channel: channel)
        return status == AMQP_STATUS_OK.rawValue || broken(status)
    }

    private func encode(_ settlement: Settlement, on channel: UInt16) -> Bool {
        switch settlement {
        case .ack(let tag, let multiple):
            var ack = amqp_basic_ack_t(delivery_tag: tag, multiple: multiple ? 1 : 0)
            return encode(AMQP_BASIC_ACK_METHOD, &ack, on: channel)
        case .nack(let tag, let multiple, let requeue):
            var nack = amqp_basic_nack_t(delivery_tag: tag, multiple: multiple ? 1 : 0, requeue: requeue ? 1 : 0)
            return encode(AMQP_BASIC_NACK_METHOD, &nack, on: channel)
        case .reject(let tag, let requeue):
            var reject = amqp_basic_reject_t(delivery_tag: tag, requeue: requeue ? 1 : 0)
            return encode(AMQP_BASIC_REJECT_METHOD, &reject, on: channel)
        }
    }

    /// Encodes basic.publish with its content; returns librabbitmq's status.
    private func encode(_ publish: OutgoingPublish, on channel: UInt16) -> Int32 {
        var properties = arena.properties(publish.properties)
        var method = amqp_basic_publish_t(
            ticket: 0, exchange: arena.bytes(publish.exchange), routing_key: arena.bytes(publish.routingKey),
            mandatory: publish.mandatory ? 1 : 0, immediate: 0)
        return publish.body.withUnsafeBytes { body in
            output.appendPublish(&method, properties: &properties, body: body, channel: channel)
        }
    }
}
