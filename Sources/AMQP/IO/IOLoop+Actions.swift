import CRabbitMQ
import Glibc

// The I/O side of the state machine: commands go in, and what it asks for is written with librabbitmq.

extension IOLoop {
    /// Runs every queued command as one batch, then recycles the memory their C structures used.
    func runCommands() {
        core.takeCommands(into: &commands)
        // Corked, a batch of publishes leaves in full TCP segments rather than one small segment each, which
        // saves most of the kernel's per-message work on both ends.
        let corked = commands.count > 1 && setCork(true)
        defer { if corked { _ = setCork(false) } }
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
            }
        }
        actions.removeAll(keepingCapacity: true)
    }

    /// Writes what `action` asks for; returns `false` when that failed and ended the connection.
    private func perform(_ action: ConnectionAction) -> Bool {
        switch action {
        case .send(let method, let channel):
            let status = send(method, on: channel)
            if status == AMQP_STATUS_OK.rawValue { return true }
            guard Self.isEncodingFailure(status) else { return broken(status) }
            // Nothing was written: that call fails alone and the state machine asks for the next one.
            machine.callNotSent(on: channel, error: .library(status), into: &actions)
            return true
        case .publish(let confirmation, let channel, let resolveWhenWritten):
            // Any failure ends the connection: a half-written message would leave the stream unusable.
            guard let publish = confirmation.request.take() else { return true }
            let status = write(publish, on: channel)
            guard status == AMQP_STATUS_OK.rawValue else { return broken(status) }
            if resolveWhenWritten { confirmation.resolve(nil) }
            return true
        case .settle(let settlement, let channel):
            let status =
                switch settlement {
                case .ack(let tag, let multiple): amqp_basic_ack(state, channel, tag, multiple ? 1 : 0)
                case .nack(let tag, let multiple, let requeue):
                    amqp_basic_nack(state, channel, tag, multiple ? 1 : 0, requeue ? 1 : 0)
                case .reject(let tag, let requeue): amqp_basic_reject(state, channel, tag, requeue ? 1 : 0)
                }
            return status == AMQP_STATUS_OK.rawValue || broken(status)
        case .requeue(let tags, let channel):
            for tag in tags {
                let status = amqp_basic_reject(state, channel, tag, 1)
                if status != AMQP_STATUS_OK.rawValue { return broken(status) }
            }
            return true
        case .acceptCancel(let tag, let channel):
            var cancelOK = amqp_basic_cancel_ok_t(consumer_tag: arena.bytes(tag))
            let status = amqp_send_method(state, channel, AMQP_BASIC_CANCEL_OK_METHOD, &cancelOK)
            return status == AMQP_STATUS_OK.rawValue || broken(status)
        case .acceptChannelClose(let channel):
            var closeOK = amqp_channel_close_ok_t()
            let status = amqp_send_method(state, channel, AMQP_CHANNEL_CLOSE_OK_METHOD, &closeOK)
            return status == AMQP_STATUS_OK.rawValue || broken(status)
        case .acceptConnectionClose:
            // The connection ends either way.
            var closeOK = amqp_connection_close_ok_t()
            _ = amqp_send_method(state, 0, AMQP_CONNECTION_CLOSE_OK_METHOD, &closeOK)
            return true
        case .closeConnection:
            var close = amqp_connection_close_t(
                reply_code: UInt16(AMQP_REPLY_SUCCESS), reply_text: arena.bytes("OK"), class_id: 0, method_id: 0)
            guard amqp_send_method(state, 0, AMQP_CONNECTION_CLOSE_METHOD, &close) == AMQP_STATUS_OK.rawValue else {
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

    /// Writes basic.publish with its content; returns librabbitmq's status.
    private func write(_ publish: OutgoingPublish, on channel: UInt16) -> Int32 {
        var properties = arena.properties(publish.properties)
        let exchange = arena.bytes(publish.exchange)
        let routingKey = arena.bytes(publish.routingKey)
        return publish.body.withUnsafeBytes { body in
            amqp_basic_publish(
                state, channel, exchange, routingKey, publish.mandatory ? 1 : 0, 0, &properties,
                amqp_bytes_t(len: body.count, bytes: UnsafeMutableRawPointer(mutating: body.baseAddress)))
        }
    }

    private func setCork(_ on: Bool) -> Bool {
        var value: Int32 = on ? 1 : 0
        return setsockopt(socket, Int32(IPPROTO_TCP), TCP_CORK, &value, socklen_t(MemoryLayout<Int32>.size)) == 0
    }

    /// Statuses amqp_send_method returns when it could not encode the method, before writing anything.
    private static func isEncodingFailure(_ status: Int32) -> Bool {
        status == AMQP_STATUS_BAD_AMQP_DATA.rawValue || status == AMQP_STATUS_TABLE_TOO_BIG.rawValue
            || status == AMQP_STATUS_INVALID_PARAMETER.rawValue
    }
}
