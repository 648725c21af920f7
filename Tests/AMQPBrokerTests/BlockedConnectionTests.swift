import AMQP
import BrokerHarness
import Testing

/// A memory alarm blocks every publishing connection on its node, and readiness reports it, so each test raises it
/// on a throwaway node of its own, never on the node the other suites share (where it would turn their readiness
/// checks into "the broker blocked publishing").
@Suite("Blocked connections", .enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"))
struct BlockedConnectionTests {
    @Test("a memory alarm is reported as blocked, publishes wait, and go out once unblocked")
    func blockedThenUnblocked() async throws {
        try await BrokerNode.withThrowaway { try await blockedThenUnblocked(on: $0) }
    }

    private func blockedThenUnblocked(on node: BrokerNode) async throws {
        let connection = try await AMQPConnection.connect(try TestBroker.configuration(url: node.url))
        let channel = try await connection.openChannel()
        let queue = try await channel.declareQueue("", durable: false, exclusive: true).name
        try await channel.enablePublisherConfirms()
        let events = EventRecorder(connection)
        try await duringMemoryAlarm(on: node) {
            // The broker blocks a connection when it publishes during the alarm.
            var confirmations = [try channel.publishPipelined([0], exchange: "", routingKey: queue)]
            try await events.waitFor { if case .blocked = $0 { true } else { false } }
            for index in 1...5 {
                confirmations.append(try channel.publishPipelined([UInt8(index)], exchange: "", routingKey: queue))
            }

            try await node.ctl("set_vm_memory_high_watermark", Self.normalWatermark)
            try await events.waitFor { $0 == .unblocked }
            try await within(hangGuard) { [confirmations] in
                for confirmation in confirmations {
                    try await confirmation.confirmed()
                }
            }
        }
        #expect(try await channel.declareQueue(queue, passive: true).messageCount == 6)
        await connection.close()
    }

    @Test("closing a blocked connection with many publishes waiting returns after the close timeout")
    func closeWhileBlocked() async throws {
        try await BrokerNode.withThrowaway { try await closeWhileBlocked(on: $0) }
    }

    private func closeWhileBlocked(on node: BrokerNode) async throws {
        var configuration = try TestBroker.configuration(url: node.url)
        configuration.connectTimeout = .seconds(2)
        let connection = try await AMQPConnection.connect(configuration)
        let channel = try await connection.openChannel()
        let queue = try await channel.declareQueue("", durable: false, exclusive: true).name
        try await channel.enablePublisherConfirms()
        let events = EventRecorder(connection)
        try await duringMemoryAlarm(on: node) {
            _ = try channel.publishPipelined([0], exchange: "", routingKey: queue)
            try await events.waitFor { if case .blocked = $0 { true } else { false } }
            // Far more than the socket buffers hold: written now, they would wedge the I/O thread until unblocked.
            let body = [UInt8](repeating: 7, count: 1 << 20)
            let held = try (0..<64).map { _ in try channel.publishPipelined(body, exchange: "", routingKey: queue) }

            try await within(.seconds(15)) { await connection.close() }
            #expect(!connection.isOpen)
            await #expect(throws: AMQPError.closed) { try await held[63].confirmed() }
        }
    }

    /// RabbitMQ's default: alarms at 40 % of the machine's memory.
    private static let normalWatermark = "0.4"

    /// Runs `body` while a memory alarm blocks publishers on `node`, and lifts the alarm afterwards whatever
    /// happened, so that closing the connection does not wait on it.
    private func duringMemoryAlarm(on node: BrokerNode, _ body: () async throws -> Void) async throws {
        try await node.ctl("set_vm_memory_high_watermark", "0.0000001")
        do {
            try await body()
        } catch {
            _ = try? await node.ctl("set_vm_memory_high_watermark", Self.normalWatermark)
            throw error
        }
        try await node.ctl("set_vm_memory_high_watermark", Self.normalWatermark)
    }
}
