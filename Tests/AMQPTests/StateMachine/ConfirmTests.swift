import Testing

@testable import AMQP

@Suite("State machine: publisher confirms, frame by frame")
struct ConfirmTests {
    @Test("acks resolve the publish they name, or with multiple every one up to it")
    func acks() async throws {
        var driver = StateMachineDriver()
        let link = try driver.openChannel()
        try driver.selectConfirms(on: link)
        let publishes = (1...4).map { _ in driver.publish(on: link) }
        #expect(publishes.flatMap { $0.1 }.summaries == Array(repeating: "publish on \(link.id)", count: 4))

        _ = driver.receive(.method(channel: link.id, .ack(deliveryTag: 2, multiple: false)))
        _ = driver.receive(.method(channel: link.id, .ack(deliveryTag: 3, multiple: true)))
        _ = driver.receive(.method(channel: link.id, .nack(deliveryTag: 4, multiple: false)))
        #expect(await publishes[0].0.outcome == nil)
        #expect(await publishes[1].0.outcome == nil)
        #expect(await publishes[2].0.outcome == nil)
        #expect(await publishes[3].0.outcome == .nacked)
    }

    @Test("a nack with multiple refuses every pending publish up to its tag, and no later one")
    func nackMultiple() async throws {
        var driver = StateMachineDriver()
        let link = try driver.openChannel()
        try driver.selectConfirms(on: link)
        let publishes = (1...5).map { _ in driver.publish(on: link).0 }
        _ = driver.receive(.method(channel: link.id, .ack(deliveryTag: 1, multiple: false)))
        _ = driver.receive(.method(channel: link.id, .nack(deliveryTag: 3, multiple: true)))
        _ = driver.receive(.method(channel: link.id, .ack(deliveryTag: 5, multiple: true)))
        var outcomes: [AMQPError?] = []
        for publish in publishes {
            outcomes.append(await publish.outcome)
        }
        #expect(outcomes == [nil, .nacked, .nacked, nil, nil])
    }

    @Test("a confirm for a tag that is not pending changes nothing")
    func unknownTag() async throws {
        var driver = StateMachineDriver()
        let link = try driver.openChannel()
        try driver.selectConfirms(on: link)
        let publishes = (1...3).map { _ in driver.publish(on: link).0 }
        _ = driver.receive(.method(channel: link.id, .ack(deliveryTag: 1, multiple: false)))
        // Never published, already confirmed, zero: all ignored, with or without multiple.
        #expect(driver.receive(.method(channel: link.id, .ack(deliveryTag: 99, multiple: true))).isEmpty)
        #expect(driver.receive(.method(channel: link.id, .nack(deliveryTag: 1, multiple: false))).isEmpty)
        #expect(driver.receive(.method(channel: link.id, .ack(deliveryTag: 0, multiple: true))).isEmpty)
        // A confirm on a channel that never selected confirms.
        let plain = try driver.openChannel()
        #expect(driver.receive(.method(channel: plain.id, .ack(deliveryTag: 1, multiple: false))).isEmpty)

        _ = driver.receive(.method(channel: link.id, .nack(deliveryTag: 3, multiple: true)))
        #expect(await publishes[0].outcome == nil)
        #expect(await publishes[1].outcome == .nacked)
        #expect(await publishes[2].outcome == .nacked)
    }

    @Test("a basic.return before its confirm fails that publish alone, with the broker's reply")
    func returnBeforeConfirm() async throws {
        var driver = StateMachineDriver()
        let link = try driver.openChannel()
        try driver.selectConfirms(on: link)
        let first = driver.publish(on: link, mandatory: true).0
        let second = driver.publish(on: link, mandatory: true).0
        let returned = AMQPDelivery(body: [], exchange: "x", routingKey: "nowhere", deliveryTag: 0, consumerTag: "")
        _ = driver.receive(.method(channel: link.id, .returned(replyCode: 312, replyText: "NO_ROUTE", returned)))
        _ = driver.receive(.header(channel: link.id, properties: MessageProperties(), bodySize: 1))
        _ = driver.receiveBody([1], on: link.id)
        _ = driver.receive(.method(channel: link.id, .ack(deliveryTag: 1, multiple: false)))
        _ = driver.receive(.method(channel: link.id, .ack(deliveryTag: 2, multiple: false)))
        #expect(await first.outcome == .returned(replyCode: 312, replyText: "NO_ROUTE"))
        #expect(await second.outcome == nil)
    }

    @Test("without confirms a publish succeeds once written; on a closed channel it fails unwritten")
    func withoutConfirms() async throws {
        var driver = StateMachineDriver()
        let link = try driver.openChannel()
        let (written, actions) = driver.publish(on: link)
        #expect(actions.summaries == ["publish on \(link.id) unconfirmed"])

        // The I/O thread could not write it: the connection ends and the publish fails with its error.
        let lost = AMQPError.library(status: -9, message: "socket closed unexpectedly")
        driver.machine.finish(lost)
        actions.forEach { driver.machine.discard($0) }
        #expect(await written.outcome == lost)

        var open = StateMachineDriver()
        let closing = try open.openChannel()
        _ = open.call(.close, on: closing)
        let (refused, none) = open.publish(on: closing)
        #expect(none.isEmpty)
        #expect(await refused.outcome == .closed)
    }

    @Test("publishes wait while the broker blocks the connection, and go out in order when it unblocks")
    func blocked() async throws {
        var driver = StateMachineDriver()
        let link = try driver.openChannel()
        try driver.selectConfirms(on: link)
        #expect(driver.receive(.blocked(reason: "low on memory")).summaries == ["announce blocked(reason: \"low on memory\")"])
        let held = (1...2).map { _ in driver.publish(on: link) }
        #expect(held.flatMap { $0.1 }.isEmpty)
        #expect(
            driver.receive(.unblocked).summaries == ["publish on \(link.id)", "publish on \(link.id)", "announce unblocked"])
        _ = driver.receive(.method(channel: link.id, .ack(deliveryTag: 2, multiple: true)))
        #expect(await held[0].0.outcome == nil)
        #expect(await held[1].0.outcome == nil)
    }
}
