import Testing

@testable import AMQP

@Suite("Publisher confirms bookkeeping")
struct PublishConfirmationTests {
    @Test("an outcome known before or after the wait reaches the waiter, and stays")
    func confirmationHandOver() async throws {
        let early = confirmation()
        early.resolve(nil)
        try await early.confirmed()
        try await early.confirmed()

        let late = confirmation()
        let waiter = Task { try await late.confirmed() }
        // Give the waiter time to suspend, so the outcome usually arrives while it waits.
        try await Task.sleep(for: .milliseconds(50))
        late.resolve(.nacked)
        await #expect(throws: AMQPError.nacked) { try await waiter.value }
        await #expect(throws: AMQPError.nacked) { try await late.confirmed() }
    }

    @Test("single acks, multiple acks and nacks resolve the publishes they name")
    func tracker() async {
        var tracker = ConfirmTracker()
        let publishes = (1...6).map { _ in confirmation() }
        publishes.forEach { tracker.register($0) }

        tracker.resolve(2, multiple: false) { _ in nil }
        tracker.resolve(4, multiple: true) { sequence in sequence == 4 ? .nacked : nil }
        tracker.resolve(6, multiple: false) { _ in .returned(replyCode: 312, replyText: "NO_ROUTE") }
        tracker.resolve(99, multiple: true) { _ in .nacked }

        #expect(await publishes[0].outcome == nil)
        #expect(await publishes[1].outcome == nil)
        #expect(await publishes[2].outcome == nil)
        #expect(await publishes[3].outcome == .nacked)
        #expect(await publishes[5].outcome == .returned(replyCode: 312, replyText: "NO_ROUTE"))

        tracker.failAll(.closed)
        #expect(await publishes[4].outcome == .closed)
    }

    @Test("sequence numbers keep counting across a long run")
    func trackerCompacts() async {
        var tracker = ConfirmTracker()
        let publishes = (1...5_000).map { _ in confirmation() }
        publishes.forEach { tracker.register($0) }
        // Out of order: every odd publish first, then the rest at once.
        for sequence in stride(from: 1, through: 4_999, by: 2) {
            tracker.resolve(UInt64(sequence), multiple: false) { _ in nil }
        }
        tracker.resolve(4_000, multiple: true) { _ in nil }
        let extra = confirmation()
        tracker.register(extra)
        tracker.resolve(5_001, multiple: false) { _ in .nacked }
        tracker.resolve(5_000, multiple: true) { _ in nil }
        for publish in publishes {
            #expect(await publish.outcome == nil)
        }
        #expect(await extra.outcome == .nacked)
    }

    private func confirmation() -> PublishConfirmation {
        PublishConfirmation(
            request: OutgoingPublish(
                channel: ChannelLink(id: 1), exchange: "", routingKey: "", mandatory: false,
                properties: MessageProperties(), body: []))
    }
}
