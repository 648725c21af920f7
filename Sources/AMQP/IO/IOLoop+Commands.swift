import CRabbitMQ
import Glibc

extension IOLoop {
    /// Runs every queued command as one batch, then recycles the memory their C structures used.
    func runCommands() {
        core.takeCommands(into: &commands)
        // Corked, a batch of publishes leaves in full TCP segments rather than one small segment each, which
        // saves most of the kernel's per-message work on both ends.
        let corked = commands.count > 1 && setCork(true)
        defer { if corked { _ = setCork(false) } }
        for index in commands.indices {
            if phase.isFinished {
                commands.removeFirst(index)
                return
            }
            execute(commands[index])
        }
        commands.removeAll(keepingCapacity: true)
        arena.recycle()
    }

    private func execute(_ command: Command) {
        if case .closing = phase {
            executeWhileClosing(command)
            return
        }
        switch command {
        case .openChannel(let reply): openChannel(reply: reply)
        case .call(let link, let method, let reply): call(method, on: link, reply: reply)
        case .publish(let confirmation):
            if heldPublishes != nil {
                heldPublishes?.append(confirmation)
            } else {
                publish(confirmation)
            }
        case .settle(let link, let settlement): settle(settlement, on: link)
        case .abandonConsumer(let link, let tag): abandonConsumer(tag, on: link)
        case .closeConnection(let reply): beginClose(reply: reply)
        }
    }

    /// After connection.close went out nothing new starts; more close() callers wait for the same end.
    private func executeWhileClosing(_ command: Command) {
        if case .closeConnection(let reply?) = command {
            closeReplies.append(reply)
        } else {
            fail(command, with: .closed)
        }
    }

    /// Answers a command that will not run.
    func fail(_ command: Command, with error: AMQPError) {
        switch command {
        case .openChannel(let reply): reply(.failure(error))
        case .call(_, let method, let reply): ChannelState.Call(method: method, reply: reply).fail(error)
        case .publish(let confirmation): confirmation.resolve(error)
        case .settle, .abandonConsumer: break
        case .closeConnection(let reply): if let reply { closeReplies.append(reply) }
        }
    }

    private func openChannel(reply: @escaping Reply<ChannelLink>) {
        guard let id = freeChannelNumber() else {
            reply(.failure(.library(status: AMQP_STATUS_INVALID_PARAMETER.rawValue,
                                    message: "all \(channels.count - 1) channel numbers are in use")))
            return
        }
        let link = ChannelLink(id: id)
        channels[Int(id)] = ChannelState(link: link)
        call(.open, on: link) { result in reply(result.map { _ in link }) }
    }

    /// The next free channel number after the last one handed out, so a closed channel's number (and any late
    /// frame for it) is not reused right away.
    private func freeChannelNumber() -> UInt16? {
        for offset in 0..<(channels.count - 1) {
            let candidate = (nextChannel - 1 + offset) % (channels.count - 1) + 1
            if channels[candidate] == nil {
                nextChannel = candidate + 1
                return UInt16(candidate)
            }
        }
        return nil
    }

    /// The open channel `link` names, or `nil` when it closed or is closing.
    func channel(_ link: ChannelLink) -> ChannelState? {
        guard let channel = channels[Int(link.id)], channel.link === link, !channel.isClosing else { return nil }
        return channel
    }

    private func call(_ method: ChannelMethod, on link: ChannelLink, reply: @escaping Reply<MethodReply>) {
        let call = ChannelState.Call(method: method, reply: reply)
        guard let channel = channel(link) else {
            call.fail(link.closeError ?? .closed)
            return
        }
        if case .close = method {
            channel.isClosing = true
            link.markClosed(.closed)
        }
        channel.calls.append(call)
        if channel.calls.count == 1 {
            sendFirstCall(of: channel)
        }
    }

    /// Sends the channel's first waiting call. One that librabbitmq cannot encode fails alone (nothing was
    /// written) and the next one is tried; a socket failure ends the connection.
    func sendFirstCall(of channel: ChannelState) {
        while let call = channel.calls.first {
            let status = send(call.method, on: channel.id)
            if status == AMQP_STATUS_OK.rawValue {
                if case .selectConfirms = call.method, channel.confirms == nil {
                    channel.confirms = ConfirmTracker()
                }
                return
            }
            guard Self.isEncodingFailure(status) else {
                finish(.library(status))
                return
            }
            channel.calls.removeFirst()
            call.fail(.library(status))
        }
    }

    /// Writes basic.publish with its content. Any failure ends the connection: a half-written message would
    /// leave the stream unusable.
    func publish(_ confirmation: PublishConfirmation) {
        guard let publish = confirmation.request.take() else { return }
        guard let channel = channel(publish.channel) else {
            confirmation.resolve(publish.channel.closeError ?? .closed)
            return
        }
        var properties = arena.properties(publish.properties)
        let exchange = arena.bytes(publish.exchange)
        let routingKey = arena.bytes(publish.routingKey)
        let status = publish.body.withUnsafeBytes { body in
            amqp_basic_publish(
                state, channel.id, exchange, routingKey, publish.mandatory ? 1 : 0, 0, &properties,
                amqp_bytes_t(len: body.count, bytes: UnsafeMutableRawPointer(mutating: body.baseAddress)))
        }
        guard status == AMQP_STATUS_OK.rawValue else {
            confirmation.resolve(.library(status))
            finish(.library(status))
            return
        }
        if channel.confirms != nil {
            channel.confirms?.register(confirmation)
        } else {
            confirmation.resolve(nil)
        }
    }

    private func settle(_ settlement: Settlement, on link: ChannelLink) {
        // Deliveries of a closed channel went back to their queues: nothing left to settle.
        guard let channel = channel(link) else { return }
        let status =
            switch settlement {
            case .ack(let tag, let multiple): amqp_basic_ack(state, channel.id, tag, multiple ? 1 : 0)
            case .nack(let tag, let multiple, let requeue):
                amqp_basic_nack(state, channel.id, tag, multiple ? 1 : 0, requeue ? 1 : 0)
            case .reject(let tag, let requeue): amqp_basic_reject(state, channel.id, tag, requeue ? 1 : 0)
            }
        if status != AMQP_STATUS_OK.rawValue {
            finish(.library(status))
        }
    }

    /// Cancels a consumer nobody iterates any more; what it still receives is requeued (see `deliver`).
    private func abandonConsumer(_ tag: String, on link: ChannelLink) {
        guard let channel = channel(link), channel.consumers[tag] != nil else { return }
        call(.cancel(tag: tag), on: link) { _ in }
    }

    private func beginClose(reply: Reply<Void>?) {
        if let reply { closeReplies.append(reply) }
        var close = amqp_connection_close_t(
            reply_code: UInt16(AMQP_REPLY_SUCCESS), reply_text: arena.bytes("OK"), class_id: 0, method_id: 0)
        let status = amqp_send_method(state, 0, AMQP_CONNECTION_CLOSE_METHOD, &close)
        guard status == AMQP_STATUS_OK.rawValue else {
            finish(nil)
            return
        }
        phase = .closing(deadline: .now + core.configuration.connectTimeout)
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
