/// An AMQP channel: declares topology, publishes, consumes and settles deliveries.
///
/// A channel error (for example 406 PRECONDITION_FAILED) closes this channel only: its calls, pending publishes and
/// consumers fail with ``AMQPError/channelClosed(replyCode:replyText:)``, and later calls throw that error at once;
/// the connection and its other channels carry on. Open a new channel to continue.
/// Consuming on one channel and publishing on another keeps a publishing error from ending the consumer.
///
/// Dropping the last reference (a consumer keeps its channel) closes the channel without waiting.
public final class AMQPChannel: Sendable {
    /// The connection the channel belongs to.
    public let connection: AMQPConnection
    let link: ChannelLink

    init(connection: AMQPConnection, link: ChannelLink) {
        self.connection = connection
        self.link = link
    }

    deinit {
        if link.closeError == nil {
            try? connection.core.submit(.call(link, .close, reply: { _ in }))
        }
    }

    /// The channel number on the connection (for logs).
    public var channelNumber: UInt16 { link.id }

    /// Whether the channel is open: neither closed by the broker or this client, nor its connection lost.
    public var isOpen: Bool { link.closeError == nil }

    // MARK: Topology

    /// Declares an exchange (exchange.declare); with `passive`, only checks that it exists (404 if not).
    public func declareExchange(
        _ name: String,
        type: ExchangeType,
        durable: Bool = true,
        autoDelete: Bool = false,
        passive: Bool = false,
        arguments: FieldTable = [:]
    ) async throws(AMQPError) {
        _ = try await call(
            .declareExchange(
                name: name, type: type.rawValue, durable: durable, autoDelete: autoDelete, passive: passive,
                arguments: arguments))
    }

    /// Deletes an exchange (exchange.delete); with `ifUnused`, only when no queue is bound to it.
    public func deleteExchange(_ name: String, ifUnused: Bool = false) async throws(AMQPError) {
        _ = try await call(.deleteExchange(name: name, ifUnused: ifUnused))
    }

    /// Declares a queue (queue.declare); with `passive`, only checks that it exists (404 if not).
    ///
    /// `arguments` set queue features: `x-queue-type` (`quorum`), `x-dead-letter-exchange`,
    /// `x-dead-letter-routing-key`, `x-message-ttl`, `x-delivery-limit`, `x-single-active-consumer`...
    /// Redeclaring an existing queue with different arguments closes the channel with 406 PRECONDITION_FAILED.
    /// An empty `name` makes the broker pick one, returned in the result.
    @discardableResult
    public func declareQueue(
        _ name: String,
        durable: Bool = true,
        exclusive: Bool = false,
        autoDelete: Bool = false,
        passive: Bool = false,
        arguments: FieldTable = [:]
    ) async throws(AMQPError) -> QueueDeclareResult {
        let reply = try await call(
            .declareQueue(
                name: name, durable: durable, exclusive: exclusive, autoDelete: autoDelete, passive: passive,
                arguments: arguments))
        guard case .queueDeclared(let result) = reply else { preconditionFailure("queue.declare answered \(reply)") }
        return result
    }

    /// Binds a queue to an exchange (queue.bind).
    public func bindQueue(
        _ queue: String,
        exchange: String,
        routingKey: String = "",
        arguments: FieldTable = [:]
    ) async throws(AMQPError) {
        _ = try await call(.bindQueue(queue: queue, exchange: exchange, routingKey: routingKey, arguments: arguments))
    }

    /// Binds an exchange to another (exchange.bind, a RabbitMQ extension): messages `source` routes with
    /// `routingKey` also go to `destination`, which routes them on by its own type.
    public func bindExchange(
        _ destination: String,
        to source: String,
        routingKey: String = "",
        arguments: FieldTable = [:]
    ) async throws(AMQPError) {
        _ = try await call(
            .bindExchange(destination: destination, source: source, routingKey: routingKey, arguments: arguments))
    }

    /// Removes every ready message from a queue (queue.purge) and returns how many there were.
    @discardableResult
    public func purgeQueue(_ name: String) async throws(AMQPError) -> UInt32 {
        try await messageCount(of: .purgeQueue(name: name))
    }

    /// Deletes a queue (queue.delete) and returns how many messages it held; `ifUnused` and `ifEmpty` make the
    /// broker refuse (406) when it has consumers or messages.
    @discardableResult
    public func deleteQueue(_ name: String, ifUnused: Bool = false, ifEmpty: Bool = false) async throws(AMQPError)
        -> UInt32
    {
        try await messageCount(of: .deleteQueue(name: name, ifUnused: ifUnused, ifEmpty: ifEmpty))
    }

    // MARK: Publishing

    /// Puts the channel in publisher-confirm mode (confirm.select): from now on the broker acks or nacks every
    /// publish, and ``publish(_:exchange:routingKey:mandatory:properties:)`` waits for that answer.
    public func enablePublisherConfirms() async throws(AMQPError) {
        _ = try await call(.selectConfirms)
    }

    /// Publishes a message and returns once the broker confirmed it (with publisher confirms enabled), or once it
    /// was written to the socket (without).
    ///
    /// Throws ``AMQPError/nacked`` when the broker refused it and ``AMQPError/returned(replyCode:replyText:)`` when
    /// `mandatory` is set and no queue was bound to take it (reported with publisher confirms enabled).
    /// A publish that breaks ``publishLimits`` throws ``AMQPError/unpublishable(_:)`` before anything is written; one
    /// that librabbitmq still fails to write ends the connection, since a half-written message leaves the stream
    /// unusable.
    public func publish(
        _ body: [UInt8],
        exchange: String,
        routingKey: String,
        mandatory: Bool = false,
        properties: MessageProperties = MessageProperties()
    ) async throws(AMQPError) {
        try await publishPipelined(
            body, exchange: exchange, routingKey: routingKey, mandatory: mandatory, properties: properties
        ).confirmed()
    }

    /// What a publish on this channel must fit: the connection's negotiated frame size and its body limit.
    public var publishLimits: PublishLimits { connection.core.publishLimits }

    /// Hands a publish to the I/O thread and returns at once, with a ``PublishConfirmation`` to await its outcome.
    ///
    /// Publishes keep their order. The I/O thread writes everything handed to it since it last woke in one batch,
    /// so publishing many messages and then awaiting their confirmations is far cheaper than one
    /// ``publish(_:exchange:routingKey:mandatory:properties:)`` at a time. Throws at once when the channel or
    /// connection is closed, and ``AMQPError/unpublishable(_:)`` when the publish breaks ``publishLimits``.
    public func publishPipelined(
        _ body: [UInt8],
        exchange: String,
        routingKey: String,
        mandatory: Bool = false,
        properties: MessageProperties = MessageProperties()
    ) throws(AMQPError) -> PublishConfirmation {
        try checkOpen()
        if let problem = publishLimits.problem(
            exchange: exchange, routingKey: routingKey, properties: properties, bodySize: body.count)
        {
            throw .unpublishable(problem)
        }
        let confirmation = PublishConfirmation(
            request: OutgoingPublish(
                channel: link, exchange: exchange, routingKey: routingKey, mandatory: mandatory,
                properties: properties, body: body))
        try connection.core.submit(.publish(confirmation))
        return confirmation
    }

    // MARK: Consuming

    /// Limits how many deliveries may be unacknowledged on this channel at once (basic.qos prefetch-count;
    /// 0 means no limit). Set it before consuming: deliveries buffer in memory until the consumer takes them.
    public func setPrefetch(_ count: UInt16) async throws(AMQPError) {
        _ = try await call(.qos(prefetchCount: count))
    }

    /// Starts a consumer on a queue (basic.consume, with acknowledgements) and returns its deliveries.
    ///
    /// The sequence finishes normally when the consumer is cancelled (``cancel(consumerTag:)``, or the broker's
    /// basic.cancel when the queue is deleted) and throws the channel's or connection's error when either closes.
    /// Cancelling the task that iterates it cancels the consumer on the broker and requeues deliveries that arrive
    /// after that; deliveries it had already buffered stay unacknowledged until the channel closes, so prefer
    /// ``cancel(consumerTag:)`` for an orderly stop. `consumerTag` defaults to a tag unique on the connection.
    public func consume(
        queue: String,
        consumerTag: String? = nil,
        exclusive: Bool = false,
        arguments: FieldTable = [:]
    ) async throws(AMQPError) -> AMQPConsumer {
        let core = connection.core
        let tag = consumerTag ?? core.makeConsumerTag()
        let (deliveries, sink) = DeliveryStream.makeStream()
        sink.onTermination = { [link] termination in
            if case .cancelled = termination {
                try? core.submit(.abandonConsumer(link, tag: tag))
            }
        }
        do throws(AMQPError) {
            _ = try await call(.consume(queue: queue, tag: tag, exclusive: exclusive, arguments: arguments, deliveries: sink))
        } catch {
            sink.finish()
            throw error
        }
        return AMQPConsumer(channel: self, consumerTag: tag, deliveries: deliveries)
    }

    /// Cancels a consumer (basic.cancel). Its sequence yields what arrived before the broker's cancel-ok and then
    /// finishes; deliveries not yet acknowledged stay unacknowledged on the channel.
    public func cancel(consumerTag: String) async throws(AMQPError) {
        _ = try await call(.cancel(tag: consumerTag))
    }

    /// Acknowledges a delivery, or with `multiple` every delivery up to it (basic.ack). Sent without waiting;
    /// throws when the channel is closed, since its deliveries went back to the queue.
    public func ack(deliveryTag: UInt64, multiple: Bool = false) throws(AMQPError) {
        try settle(.ack(deliveryTag: deliveryTag, multiple: multiple))
    }

    /// Rejects a delivery, or with `multiple` every delivery up to it (basic.nack): requeued, or dead-lettered
    /// (or dropped) without `requeue`. Sent without waiting; throws when the channel is closed.
    public func nack(deliveryTag: UInt64, multiple: Bool = false, requeue: Bool = true) throws(AMQPError) {
        try settle(.nack(deliveryTag: deliveryTag, multiple: multiple, requeue: requeue))
    }

    /// Rejects one delivery (basic.reject): requeued, or dead-lettered (or dropped) without `requeue`.
    /// Sent without waiting; throws when the channel is closed.
    public func reject(deliveryTag: UInt64, requeue: Bool = true) throws(AMQPError) {
        try settle(.reject(deliveryTag: deliveryTag, requeue: requeue))
    }

    /// Takes one message from a queue (basic.get, with acknowledgement), or `nil` when it is empty.
    /// For tools; consumers are far cheaper for a stream of messages.
    public func get(queue: String) async throws(AMQPError) -> AMQPDelivery? {
        let reply = try await call(.get(queue: queue))
        guard case .got(let delivery) = reply else { preconditionFailure("basic.get answered \(reply)") }
        return delivery
    }

    /// Closes the channel (channel.close, then waits for close-ok). Its consumers end with ``AMQPError/closed``
    /// and its unacknowledged deliveries go back to their queues. Closing a closed channel does nothing.
    public func close() async {
        guard link.closeError == nil else { return }
        _ = try? await call(.close)
    }

    // MARK: Plumbing

    private func checkOpen() throws(AMQPError) {
        if let error = link.closeError { throw error }
    }

    private func call(_ method: ChannelMethod) async throws(AMQPError) -> MethodReply {
        try checkOpen()
        return try await connection.core.call { [link] reply in .call(link, method, reply: reply) }
    }

    private func messageCount(of method: ChannelMethod) async throws(AMQPError) -> UInt32 {
        let reply = try await call(method)
        guard case .messageCount(let count) = reply else { preconditionFailure("\(method) answered \(reply)") }
        return count
    }

    private func settle(_ settlement: Settlement) throws(AMQPError) {
        try checkOpen()
        try connection.core.submit(.settle(link, settlement))
    }
}
