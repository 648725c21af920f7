import Testing

@testable import AMQP

@Suite("State machine: deliveries from method, header and body frames")
struct DeliveryAssemblyTests {
    @Test("a delivery is assembled across body frames and handed over after the read pass, in one batch")
    func assembly() async throws {
        var driver = StateMachineDriver()
        let link = try driver.openChannel()
        let stream = try driver.consume(tag: "c1", on: link)
        var properties = MessageProperties()
        properties.contentType = "application/json"
        properties.headers = ["x-attempts": .int32(2)]
        _ = driver.receive(
            .method(
                channel: link.id,
                .deliver(AMQPDelivery(body: [], exchange: "x", routingKey: "k", deliveryTag: 1, consumerTag: "c1"))))
        _ = driver.receive(.header(channel: link.id, properties: properties, bodySize: 5))
        _ = driver.receiveBody([1, 2], on: link.id)
        _ = driver.receiveBody([3, 4, 5], on: link.id)
        // An empty body completes at its header.
        _ = driver.deliver([], tag: 2, to: "c1", on: link.id)
        #expect(driver.handOverDeliveries().isEmpty)

        var deliveries = stream.makeAsyncIterator()
        let batch = try #require(await deliveries.next()).get()
        #expect(batch.map(\.deliveryTag) == [1, 2])
        #expect(batch[0].body == [1, 2, 3, 4, 5] && batch[0].bodySize == 5)
        #expect(batch[0].properties == properties && batch[0].exchange == "x" && batch[0].routingKey == "k")
        #expect(batch[1].body.isEmpty && batch[1].bodySize == 0)
    }

    @Test("a delivery carries when its last frame was read, not its method frame: where delivery-to-ack starts")
    func arrivalTime() async throws {
        var driver = StateMachineDriver()
        let link = try driver.openChannel()
        let stream = try driver.consume(tag: "c1", on: link)
        _ = driver.beginDelivery(bodySize: 2, tag: 1, to: "c1", on: link.id)
        _ = driver.receiveBody([1], on: link.id)
        // Apart by more than the clock's resolution from the frames before: only the last frame's read is later.
        try await Task.sleep(for: .milliseconds(2))
        let beforeLastFrame = ContinuousClock.now
        _ = driver.receiveBody([2], on: link.id)
        let afterLastFrame = ContinuousClock.now
        _ = driver.handOverDeliveries()

        var deliveries = stream.makeAsyncIterator()
        let batch = try #require(await deliveries.next()).get()
        let arrivalTime = try #require(batch.first?.arrivalTime)
        #expect(arrivalTime >= beforeLastFrame && arrivalTime <= afterLastFrame)
    }

    @Test("a body frame larger than announced gives the announced bytes; frames after the end are dropped")
    func bodyLargerThanAnnounced() async throws {
        var driver = StateMachineDriver()
        let link = try driver.openChannel()
        let stream = try driver.consume(tag: "c1", on: link)
        _ = driver.beginDelivery(bodySize: 3, tag: 1, to: "c1", on: link.id)
        #expect(driver.receiveBody([1, 2, 3, 4, 5, 6], on: link.id).isEmpty)
        #expect(driver.receiveBody([7, 8], on: link.id).isEmpty)
        _ = driver.deliver([9], tag: 2, to: "c1", on: link.id)
        _ = driver.handOverDeliveries()

        var deliveries = stream.makeAsyncIterator()
        let batch = try #require(await deliveries.next()).get()
        #expect(batch.map(\.body) == [[1, 2, 3], [9]])
        #expect(batch.map(\.bodySize) == [3, 1])
    }

    @Test("a body over the size limit is read and discarded, and says how large it was")
    func bodyOverLimit() async throws {
        var driver = StateMachineDriver(maxBodySize: 4)
        let link = try driver.openChannel()
        let stream = try driver.consume(tag: "c1", on: link)
        _ = driver.deliver([1, 2, 3, 4, 5, 6], tag: 1, to: "c1", on: link.id)
        _ = driver.deliver([1, 2, 3, 4], tag: 2, to: "c1", on: link.id)
        _ = driver.handOverDeliveries()

        var deliveries = stream.makeAsyncIterator()
        let batch = try #require(await deliveries.next()).get()
        #expect(batch.map(\.isBodyDropped) == [true, false])
        #expect(batch.map(\.body) == [[], [1, 2, 3, 4]])
        #expect(batch.map(\.bodySize) == [6, 4])
    }

    @Test("frames for a channel that is not open are dropped, even past the channel table")
    func unknownChannel() async throws {
        var driver = StateMachineDriver()
        let link = try driver.openChannel()
        let stream = try driver.consume(tag: "c1", on: link)
        for channel: UInt16 in [5, 9, UInt16.max] {
            #expect(driver.deliver([1, 2], tag: 1, to: "c1", on: channel).isEmpty)
            #expect(driver.receive(.method(channel: channel, .answer(.channelOpened))).isEmpty)
            #expect(driver.receive(.method(channel: channel, .close(.channelClosed(replyCode: 406, replyText: "x")))).isEmpty)
            #expect(driver.receive(.method(channel: channel, .cancel(consumerTag: "c1", noWait: false))).isEmpty)
        }
        // Content with no message before it, on the open channel.
        #expect(driver.receive(.header(channel: link.id, properties: MessageProperties(), bodySize: 2)).isEmpty)
        #expect(driver.receiveBody([1, 2], on: link.id).isEmpty)
        #expect(driver.handOverDeliveries().isEmpty)

        // The open channel's consumer is untouched.
        _ = driver.deliver([7], tag: 3, to: "c1", on: link.id)
        _ = driver.handOverDeliveries()
        var deliveries = stream.makeAsyncIterator()
        #expect(try #require(await deliveries.next()).get().map(\.deliveryTag) == [3])
        #expect(link.closeError == nil)
    }

    @Test("a delivery for a consumer that is gone goes back to its queue")
    func unknownConsumer() throws {
        var driver = StateMachineDriver()
        let link = try driver.openChannel()
        #expect(driver.deliver([1], tag: 4, to: "nobody", on: link.id).summaries == ["requeue [4] on \(link.id)"])
    }

    @Test("a consumer the broker cancels ends normally; what it had not taken goes back, then cancel-ok")
    func brokerCancel() async throws {
        var driver = StateMachineDriver()
        let link = try driver.openChannel()
        let stream = try driver.consume(tag: "c1", on: link)
        // Nobody keeps c2's stream: it ends at once.
        _ = try driver.consume(tag: "c2", on: link)
        _ = driver.deliver([1], tag: 1, to: "c1", on: link.id)
        _ = driver.handOverDeliveries()
        #expect(
            driver.receive(.method(channel: link.id, .cancel(consumerTag: "c1", noWait: false))).summaries
                == ["cancel-ok c1 on \(link.id)"])
        var deliveries = stream.makeAsyncIterator()
        #expect(try #require(await deliveries.next()).get().map(\.deliveryTag) == [1])
        #expect(await deliveries.next() == nil)

        // Nobody takes c2's delivery: it goes back at hand-over; no cancel-ok with no-wait.
        _ = driver.deliver([2], tag: 2, to: "c2", on: link.id)
        #expect(driver.handOverDeliveries().summaries == ["requeue [2] on \(link.id)"])
        #expect(driver.receive(.method(channel: link.id, .cancel(consumerTag: "c2", noWait: true))).isEmpty)
        #expect(driver.deliver([3], tag: 3, to: "c2", on: link.id).summaries == ["requeue [3] on \(link.id)"])
    }
}
