import Testing

@testable import AMQP

@Suite("State machine: what answers which pending call")
struct CallAnswerTests {
    @Test("calls on a channel go out one at a time; each reply answers the oldest and sends the next")
    func oneCallOnTheWire() throws {
        var driver = StateMachineDriver()
        let link = try driver.openChannel()
        let (declared, first) = driver.call(
            .declareQueue(name: "q", durable: true, exclusive: false, autoDelete: false, passive: false, arguments: [:]),
            on: link)
        let (bound, second) = driver.call(.bindQueue(queue: "q", exchange: "x", routingKey: "k", arguments: [:]), on: link)
        #expect(first.summaries == ["send declareQueue on \(link.id)"])
        #expect(second.isEmpty)

        let result = QueueDeclareResult(name: "q", messageCount: 3, consumerCount: 1)
        let next = driver.receive(.method(channel: link.id, .answer(.queueDeclared(result))))
        guard case .queueDeclared(let answered) = try declared.value.get() else {
            Issue.record("queue.declare answered \(try declared.value)")
            return
        }
        #expect(answered == result)
        #expect(!bound.isAnswered)
        #expect(next.summaries == ["send bindQueue on \(link.id)"])

        #expect(driver.receive(.method(channel: link.id, .answer(.queueBound))).isEmpty)
        #expect(bound.isAnswered && bound.error == nil)
    }

    @Test("exchange.bind is answered by exchange.bind-ok, not by queue.bind-ok")
    func exchangeBind() throws {
        var driver = StateMachineDriver()
        let link = try driver.openChannel()
        let (bound, sent) = driver.call(
            .bindExchange(destination: "shards", source: "responses", routingKey: "#", arguments: [:]), on: link)
        #expect(sent.summaries == ["send bindExchange on \(link.id)"])
        #expect(driver.receive(.method(channel: link.id, .answer(.queueBound))).isEmpty)
        #expect(!bound.isAnswered)
        _ = driver.receive(.method(channel: link.id, .answer(.exchangeBound)))
        #expect(bound.isAnswered && bound.error == nil)
    }

    @Test("a reply that does not answer the call on the wire is ignored")
    func strayReply() throws {
        var driver = StateMachineDriver()
        let link = try driver.openChannel()
        let (purged, _) = driver.call(.purgeQueue(name: "q"), on: link)
        #expect(driver.receive(.method(channel: link.id, .answer(.queueDeleted(messageCount: 9)))).isEmpty)
        #expect(driver.receive(.method(channel: link.id, .answer(.other(id: 0x3C_0050)))).isEmpty)
        #expect(!purged.isAnswered)

        _ = driver.receive(.method(channel: link.id, .answer(.queuePurged(messageCount: 4))))
        guard case .messageCount(4) = try purged.value.get() else {
            Issue.record("queue.purge answered \(try purged.value)")
            return
        }
        // A reply with no call pending at all.
        #expect(driver.receive(.method(channel: link.id, .answer(.qosSet))).isEmpty)
        #expect(purged.answers == 1)
    }

    @Test("basic.get is answered once the message's content arrived; get-empty at once")
    func get() throws {
        var driver = StateMachineDriver()
        let link = try driver.openChannel()
        let (got, _) = driver.call(.get(queue: "q"), on: link)
        let (after, _) = driver.call(.qos(prefetchCount: 1), on: link)
        let message = AMQPDelivery(body: [], exchange: "x", routingKey: "k", redelivered: true, deliveryTag: 7, consumerTag: "")
        #expect(driver.receive(.method(channel: link.id, .answer(.got(message)))).isEmpty)
        var properties = MessageProperties()
        properties.messageID = "m-1"
        _ = driver.receive(.header(channel: link.id, properties: properties, bodySize: 3))
        #expect(!got.isAnswered)
        let next = driver.receiveBody([1, 2, 3], on: link.id)
        guard case .got(let delivery?) = try got.value.get() else {
            Issue.record("basic.get answered \(try got.value)")
            return
        }
        #expect(delivery.body == [1, 2, 3] && delivery.deliveryTag == 7 && delivery.redelivered)
        #expect(delivery.properties.messageID == "m-1")
        #expect(next.summaries == ["send qos on \(link.id)"])
        _ = driver.receive(.method(channel: link.id, .answer(.qosSet)))
        #expect(after.isAnswered)

        let (empty, _) = driver.call(.get(queue: "q"), on: link)
        _ = driver.receive(.method(channel: link.id, .answer(.gotNothing)))
        guard case .got(nil) = try empty.value.get() else {
            Issue.record("basic.get answered \(try empty.value)")
            return
        }
    }

    @Test("a call librabbitmq cannot encode fails alone and the next one goes out")
    func callNotEncoded() throws {
        var driver = StateMachineDriver()
        let link = try driver.openChannel()
        let (declared, _) = driver.call(
            .declareExchange(name: "x", type: "direct", durable: true, autoDelete: false, passive: false, arguments: [:]),
            on: link)
        let (bound, _) = driver.call(.bindQueue(queue: "q", exchange: "x", routingKey: "", arguments: [:]), on: link)
        let failure = AMQPError.library(status: -13, message: "table too large")
        var actions: [ConnectionAction] = []
        driver.machine.callNotSent(on: link.id, error: failure, into: &actions)
        #expect(declared.error == failure)
        #expect(actions.summaries == ["send bindQueue on \(link.id)"])
        _ = driver.receive(.method(channel: link.id, .answer(.queueBound)))
        #expect(bound.isAnswered && bound.error == nil)
        #expect(link.closeError == nil)
    }

    @Test("channel numbers are handed out in turn, and run out")
    func channelNumbers() throws {
        var driver = StateMachineDriver(channelMax: 3)
        let first = try driver.openChannel()
        let second = try driver.openChannel()
        #expect((first.id, second.id) == (1, 2))
        let (closed, _) = driver.call(.close, on: first)
        _ = driver.receive(.method(channel: first.id, .answer(.channelClosed)))
        #expect(closed.isAnswered)
        // The freed number 1 is not the next one: a late frame for the old channel cannot reach a new one.
        #expect(try driver.openChannel().id == 3)
        #expect(try driver.openChannel().id == 1)

        let refused = Outcome<ChannelLink>()
        #expect(driver.execute(.openChannel(reply: refused.reply)).isEmpty)
        guard case .library(_, let message)? = refused.error else {
            Issue.record("openChannel answered \(String(describing: try? refused.value))")
            return
        }
        #expect(message == "all 3 channel numbers are in use")
    }
}
