import Logging

/// The AMQP protocol logic of one connection, as plain state driven by commands and decoded frames.
///
/// Shaped like postgres-nio's `ConnectionStateMachine`: the state machine never does I/O. The I/O thread
/// (``IOLoop``) owns it and librabbitmq, hands it each caller's ``Command`` (``execute(_:into:)``) and each frame it
/// read, decoded into an ``IncomingFrame`` (``receive(_:into:)``), and performs the ``ConnectionAction``s it
/// returns: methods and publishes to write, deliveries to requeue, events to announce. The state machine keeps
/// what answers which pending call (one synchronous method on the wire per channel, matched against the broker's
/// reply), publisher-confirm bookkeeping (sequence numbers, single and multiple acks and nacks, a basic.return
/// naming the publish its confirm resolves), the assembly of messages from method, content header and body
/// frames, and what a close by the broker or this client ends. It resumes callers itself (``Reply`` closures,
/// ``PublishConfirmation``, consumer streams): those only resume continuations, they never block.
///
/// Unit tests drive it frame by frame without a broker (Tests/AMQPTests); the broker suites test the whole.
/// Like the rest of the I/O thread's state, it is used by that one thread only.
struct ConnectionStateMachine {
    /// Where the connection is in its life.
    enum Phase {
        case open
        /// connection.close went out: nothing new starts; the broker's close-ok ends the connection.
        case closing
        /// Done: `nil` after a close by this client, else the error that ended the connection.
        case finished(AMQPError?)
    }

    private(set) var phase = Phase.open
    /// Open channels by number (index 0, the connection's own channel, stays empty).
    var channels: [ChannelState?]
    private var nextChannel = 1
    /// Callers of close() waiting for the end.
    var closeReplies: [Reply<Void>] = []
    /// Consumers with deliveries from the current read pass, handed over at its end.
    var feedsToFlush: [(ChannelState, ConsumerFeed)] = []
    /// Publishes waiting while the broker blocks the connection (connection.blocked): it stops reading the socket
    /// then, and writing on would wedge the I/O thread in librabbitmq once the socket buffer is full.
    var heldPublishes: [PublishConfirmation]?
    /// Bodies larger than this are read and discarded (``AMQPConfiguration/maxBodySize``).
    let maxBodySize: Int?
    let logger: Logger

    /// A state machine for a connection whose broker allows `channelMax` channels.
    init(channelMax: UInt16, maxBodySize: Int?, logger: Logger) {
        // RabbitMQ allows 2047 channels by default; a table beyond 4096 would only waste memory.
        channels = Array(repeating: nil, count: Int(min(channelMax, 4096)) + 1)
        self.maxBodySize = maxBodySize
        self.logger = logger
    }

    var isFinished: Bool {
        if case .finished = phase { true } else { false }
    }

    var isClosing: Bool {
        if case .closing = phase { true } else { false }
    }

    /// Ends the connection; the first end wins. `nil` for a close by this client.
    mutating func finish(_ error: AMQPError?) {
        if isFinished { return }
        phase = .finished(error)
    }

    // MARK: Commands

    /// Runs one caller's command.
    mutating func execute(_ command: Command, into actions: inout [ConnectionAction]) {
        switch phase {
        case .open:
            break
        case .closing:
            // After connection.close went out nothing new starts; more close() callers wait for the same end.
            if case .closeConnection(let reply?) = command {
                closeReplies.append(reply)
            } else {
                fail(command, with: .closed)
            }
            return
        case .finished(let error):
            fail(command, with: error ?? .closed)
            return
        }
        switch command {
        case .openChannel(let reply): openChannel(reply: reply, into: &actions)
        case .call(let link, let method, let reply): call(method, on: link, reply: reply, into: &actions)
        case .publish(let confirmation):
            if heldPublishes != nil {
                heldPublishes?.append(confirmation)
            } else {
                publish(confirmation, into: &actions)
            }
        case .settle(let link, let settlement):
            // Deliveries of a closed channel went back to their queues: nothing left to settle.
            guard let channel = self.channel(link) else { return }
            actions.append(.settle(settlement, channel: channel.id))
        case .abandonConsumer(let link, let tag):
            // Cancels a consumer nobody iterates any more; what it still receives is requeued (see `deliver`).
            guard let channel = self.channel(link), channel.consumers[tag] != nil else { return }
            call(.cancel(tag: tag), on: link, reply: { _ in }, into: &actions)
        case .closeConnection(let reply):
            if let reply { closeReplies.append(reply) }
            phase = .closing
            actions.append(.closeConnection)
        }
    }

    /// Answers a command that will not run.
    mutating func fail(_ command: Command, with error: AMQPError) {
        switch command {
        case .openChannel(let reply): reply(.failure(error))
        case .call(_, let method, let reply): ChannelState.Call(method: method, reply: reply).fail(error)
        case .publish(let confirmation): confirmation.resolve(error)
        case .settle, .abandonConsumer: break
        case .closeConnection(let reply): if let reply { closeReplies.append(reply) }
        }
    }

    private mutating func openChannel(reply: @escaping Reply<ChannelLink>, into actions: inout [ConnectionAction]) {
        guard let id = freeChannelNumber() else {
            reply(.failure(.noFreeChannel(channels.count - 1)))
            return
        }
        let link = ChannelLink(id: id)
        channels[Int(id)] = ChannelState(link: link)
        call(.open, on: link, reply: { result in reply(result.map { _ in link }) }, into: &actions)
    }

    /// The next free channel number after the last one handed out, so a closed channel's number (and any late
    /// frame for it) is not reused right away.
    private mutating func freeChannelNumber() -> UInt16? {
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
        guard let channel = self.channel(number: link.id), channel.link === link, !channel.isClosing else { return nil }
        return channel
    }

    /// The channel with number `id`, or `nil` for a number that is not open (or out of range: frames are input).
    func channel(number id: UInt16) -> ChannelState? {
        Int(id) < channels.count ? channels[Int(id)] : nil
    }

    private mutating func call(
        _ method: ChannelMethod, on link: ChannelLink, reply: @escaping Reply<MethodReply>,
        into actions: inout [ConnectionAction]
    ) {
        let call = ChannelState.Call(method: method, reply: reply)
        guard let channel = self.channel(link) else {
            call.fail(link.closeError ?? .closed)
            return
        }
        if case .close = method {
            channel.isClosing = true
            link.markClosed(.closed)
        }
        channel.calls.append(call)
        if channel.calls.count == 1 {
            sendFirstCall(of: channel, into: &actions)
        }
    }

    /// Asks for the channel's first waiting call to be written. From confirm.select on, every publish on the
    /// channel counts for publisher confirms.
    func sendFirstCall(of channel: ChannelState, into actions: inout [ConnectionAction]) {
        guard let call = channel.calls.first else { return }
        if case .selectConfirms = call.method, channel.confirms == nil {
            channel.confirms = ConfirmTracker()
        }
        actions.append(.send(call.method, channel: channel.id))
    }

    /// librabbitmq could not encode the first call of channel `id`, so nothing was written: that call fails alone
    /// and the next one is tried.
    mutating func callNotSent(on id: UInt16, error: AMQPError, into actions: inout [ConnectionAction]) {
        guard let channel = self.channel(number: id), !channel.calls.isEmpty else { return }
        let call = channel.calls.removeFirst()
        if case .selectConfirms = call.method {
            channel.confirms = nil
        }
        call.fail(error)
        sendFirstCall(of: channel, into: &actions)
    }

    /// Asks for a publish to be written; with publisher confirms on, it waits for its ack from now on.
    mutating func publish(_ confirmation: PublishConfirmation, into actions: inout [ConnectionAction]) {
        guard let link = confirmation.request?.channel else { return }
        guard let channel = self.channel(link) else {
            confirmation.request = nil
            confirmation.resolve(link.closeError ?? .closed)
            return
        }
        if channel.confirms != nil {
            channel.confirms?.register(confirmation)
            actions.append(.publish(confirmation, channel: channel.id, resolveWhenWritten: false))
        } else {
            actions.append(.publish(confirmation, channel: channel.id, resolveWhenWritten: true))
        }
    }

    /// Settles what an action left undone because the connection ended before it was written: a publish without
    /// confirms fails with the connection's end (tracked publishes and calls fail in ``tearDown(failing:)``).
    func discard(_ action: ConnectionAction) {
        if case .publish(let confirmation, _, resolveWhenWritten: true) = action {
            confirmation.request = nil
            confirmation.resolve(terminalError)
        }
    }

    /// What pending work fails with once the connection ended.
    var terminalError: AMQPError {
        if case .finished(let error?) = phase { error } else { .closed }
    }

    // MARK: The end

    /// Fails everything still pending (the channels' calls, publishes and consumers, the held publishes and the
    /// commands never run) with the connection's end, and returns the close() callers to answer once the
    /// connection is released. Call once, after the connection finished.
    mutating func tearDown(failing unstarted: [Command]) -> [Reply<Void>] {
        let failure = terminalError
        for case let channel? in channels {
            channel.fail(failure)
        }
        channels = []
        feedsToFlush = []
        for command in unstarted {
            fail(command, with: failure)
        }
        for confirmation in heldPublishes ?? [] {
            confirmation.request = nil
            confirmation.resolve(failure)
        }
        heldPublishes = nil
        defer { closeReplies = [] }
        return closeReplies
    }
}
