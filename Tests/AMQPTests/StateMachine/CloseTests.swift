import Testing

@testable import AMQP

@Suite("State machine: channel and connection close")
struct CloseTests {
    @Test("the broker's channel.close fails the channel's pending calls, publishes and consumers, and no other channel's")
    func brokerClosesChannel() async throws {
        var driver = StateMachineDriver()
        let link = try driver.openChannel()
        let other = try driver.openChannel()
        try driver.selectConfirms(on: link)
        let stream = try driver.consume(tag: "c1", on: link)
        let (declared, _) = driver.call(
            .declareQueue(name: "q", durable: true, exclusive: false, autoDelete: false, passive: true, arguments: [:]),
            on: link)
        let (bound, _) = driver.call(.bindQueue(queue: "q", exchange: "x", routingKey: "", arguments: [:]), on: link)
        let publish = driver.publish(on: link).0
        // A message half read when the close comes.
        _ = driver.receive(
            .method(
                channel: link.id,
                .deliver(AMQPDelivery(body: [], exchange: "", routingKey: "q", deliveryTag: 1, consumerTag: "c1"))))

        let error = AMQPError.channelClosed(replyCode: 404, replyText: "NOT_FOUND - no queue 'q'")
        #expect(driver.receive(.method(channel: link.id, .close(error))).summaries == ["channel.close-ok on \(link.id)"])
        #expect(declared.error == error && bound.error == error)
        #expect(await publish.outcome == error)
        var deliveries = stream.makeAsyncIterator()
        let end = try #require(await deliveries.next())
        #expect(throws: error) { try end.get() }
        #expect(link.closeError == error)

        // Its late frames are dropped; new work fails at once; the other channel carries on.
        #expect(driver.receive(.header(channel: link.id, properties: MessageProperties(), bodySize: 0)).isEmpty)
        let (late, none) = driver.call(.qos(prefetchCount: 1), on: link)
        #expect(none.isEmpty && late.error == error)
        #expect(driver.execute(.settle(link, .ack(deliveryTag: 1, multiple: false))).isEmpty)
        #expect(other.closeError == nil)
        let (qos, sent) = driver.call(.qos(prefetchCount: 1), on: other)
        #expect(sent.summaries == ["send qos on \(other.id)"])
        _ = driver.receive(.method(channel: other.id, .answer(.qosSet)))
        #expect(qos.isAnswered && qos.error == nil)
    }

    @Test("closing a channel waits for the calls before it; nothing new starts meanwhile")
    func clientClosesChannel() throws {
        var driver = StateMachineDriver()
        let link = try driver.openChannel()
        let (purged, _) = driver.call(.purgeQueue(name: "q"), on: link)
        let (closed, queued) = driver.call(.close, on: link)
        #expect(queued.isEmpty)
        #expect(link.closeError == .closed)
        let (refused, _) = driver.call(.qos(prefetchCount: 1), on: link)
        #expect(refused.error == .closed)

        #expect(
            driver.receive(.method(channel: link.id, .answer(.queuePurged(messageCount: 0)))).summaries
                == ["send close on \(link.id)"])
        #expect(purged.error == nil && !closed.isAnswered)
        #expect(driver.receive(.method(channel: link.id, .answer(.channelClosed))).isEmpty)
        #expect(closed.isAnswered && closed.error == nil)
        #expect(driver.machine.channel(number: link.id) == nil)
    }

    @Test("the broker's connection.close ends everything pending with its error")
    func brokerClosesConnection() async throws {
        var driver = StateMachineDriver()
        let link = try driver.openChannel()
        try driver.selectConfirms(on: link)
        let stream = try driver.consume(tag: "c1", on: link)
        let (declared, _) = driver.call(
            .declareExchange(name: "x", type: "topic", durable: true, autoDelete: false, passive: false, arguments: [:]),
            on: link)
        let publish = driver.publish(on: link).0
        let opening = Outcome<ChannelLink>()
        _ = driver.execute(.openChannel(reply: opening.reply))

        let error = AMQPError.connectionClosed(replyCode: 320, replyText: "CONNECTION_FORCED")
        #expect(driver.receive(.connectionClose(error)).summaries == ["connection.close-ok"])
        guard case .finished(error) = driver.machine.phase else {
            Issue.record("phase \(driver.machine.phase)")
            return
        }
        // Commands that were queued but never ran fail with the same error.
        let unstarted = Outcome<MethodReply>()
        let closing = Outcome<Void>()
        let replies = driver.machine.tearDown(
            failing: [.call(link, .qos(prefetchCount: 1), reply: unstarted.reply), .closeConnection(reply: closing.reply)])
        #expect(declared.error == error && opening.error == error && unstarted.error == error)
        #expect(await publish.outcome == error)
        var deliveries = stream.makeAsyncIterator()
        let end = try #require(await deliveries.next())
        #expect(throws: error) { try end.get() }
        #expect(link.closeError == error)
        #expect(replies.count == 1 && !closing.isAnswered)
    }

    @Test("closing the connection: nothing new starts, every close() waits for close-ok")
    func clientClosesConnection() async throws {
        var driver = StateMachineDriver()
        let link = try driver.openChannel()
        try driver.selectConfirms(on: link)
        let publish = driver.publish(on: link).0
        let first = Outcome<Void>()
        #expect(driver.execute(.closeConnection(reply: first.reply)).summaries == ["connection.close"])

        let second = Outcome<Void>()
        #expect(driver.execute(.closeConnection(reply: second.reply)).isEmpty)
        let (refused, _) = driver.call(.qos(prefetchCount: 1), on: link)
        #expect(refused.error == .closed)
        let (late, none) = driver.publish(on: link)
        #expect(none.isEmpty)
        #expect(await late.outcome == .closed)
        // Confirms still arrive while the broker closes.
        _ = driver.receive(.method(channel: link.id, .ack(deliveryTag: 1, multiple: false)))
        #expect(await publish.outcome == nil)

        // The broker's own connection.close crossing ours counts as the close-ok.
        #expect(
            driver.receive(.connectionClose(.connectionClosed(replyCode: 200, replyText: "OK"))).summaries
                == ["connection.close-ok"])
        guard case .finished(nil) = driver.machine.phase else {
            Issue.record("phase \(driver.machine.phase)")
            return
        }
        let replies = driver.machine.tearDown(failing: [])
        #expect(replies.count == 2)
        #expect(link.closeError == .closed)
    }
}
