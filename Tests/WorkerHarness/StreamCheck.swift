import AMQP
import BrokerHarness
import Foundation
import NotificationEvents
import RedGreenExample

/// The updates a ``RedGreenTaps/stream(prefix:notifications:tapsEach:exchange:)`` owes, and what differs in the
/// updates that arrived: for tests that crash, disconnect or stop workers in the middle of a stream.
public struct StreamCheck: Sendable {
    public let prefix: String
    public let notifications: Int
    public let tapsEach: Int

    public init(prefix: String, notifications: Int, tapsEach: Int) {
        self.prefix = prefix
        self.notifications = notifications
        self.tapsEach = tapsEach
    }

    /// The message id of every update the stream owes: one per tap that changes a notification's buttons.
    public var expectedMessageIDs: Set<String> {
        Set(expected.keys)
    }

    /// Each owed update's message id, with the notification and whether the reset button shows after it.
    private var expected: [String: (notification: Int, tap: Int, withReset: Bool)] {
        var owed: [String: (Int, Int, Bool)] = [:]
        for notification in 1...notifications {
            for (tap, withReset) in RedGreenTaps.expectedUpdates(taps: tapsEach) {
                let id = ActionSetUpdateEvent.id(causedBy: RedGreenTaps.tapID(prefix, notification, tap))
                owed[id] = (notification, tap, withReset)
            }
        }
        return owed
    }

    /// What is wrong with `updates` (duplicates allowed): an owed update missing, one the stream does not owe
    /// (a tap lost or counted twice shifts the sequence), a duplicate whose content differs, or buttons that are
    /// not the ones after that tap. Empty when all is well.
    public func problems(_ updates: [AMQPDelivery]) -> [String] {
        let owed = expected
        var problems: [String] = []
        var firstBody: [String: [UInt8]] = [:]
        for update in updates {
            let id = update.properties.messageID ?? "(no message id)"
            guard let (_, _, withReset) = owed[id] else {
                problems.append("an update the stream does not owe: \(id)")
                continue
            }
            if let body = firstBody[id] {
                if body != update.body { problems.append("\(id) arrived twice with different content") }
                continue
            }
            firstBody[id] = update.body
            guard let event = try? EventCodec.decodeActionSetUpdateEvent(update.body) else {
                problems.append("\(id) is not an action-set update")
                continue
            }
            let titles = event.data.actions.map(\.title)
            let owedTitles = [RedGreen.rotateAction.title] + (withReset ? [RedGreen.resetAction.title] : [])
            if titles != owedTitles { problems.append("\(id) shows \(titles), not \(owedTitles)") }
            if update.properties.correlationID != event.data.causationId {
                problems.append("\(id): correlation id \(update.properties.correlationID ?? "nil") is not its cause")
            }
        }
        for id in owed.keys.sorted() where firstBody[id] == nil { problems.append("missing update \(id)") }
        return problems
    }
}

extension QueueProbe {
    /// Takes updates from the output queue until every one of `messageIDs` has arrived (or `timeout` passed), and
    /// returns all it took, duplicates included.
    public func collectUpdates(_ messageIDs: Set<String>, timeout: Duration = hangGuard) async throws -> [AMQPDelivery] {
        var taken: [AMQPDelivery] = []
        var seen: Set<String> = []
        let deadline = ContinuousClock.now + timeout
        while !messageIDs.isSubset(of: seen), ContinuousClock.now < deadline {
            guard let message = try await channel.get(queue: topology.topology.outputQueue) else {
                try await Task.sleep(for: .milliseconds(100))
                continue
            }
            try channel.ack(deliveryTag: message.deliveryTag)
            taken.append(message)
            if let id = message.properties.messageID { seen.insert(id) }
        }
        return taken
    }
}
