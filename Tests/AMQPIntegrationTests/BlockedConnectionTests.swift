import AMQP
import Testing
import WorkerHarness

/// A memory alarm blocks every publishing connection on the node, so these tests run one at a time and lift the
/// alarm whatever happens; other tests' publishes only wait meanwhile.
@Suite("Blocked connections", .serialized, .enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"))
struct BlockedConnectionTests {
    @Test("a memory alarm is reported as blocked, publishes wait, and go out once unblocked")
    func blockedThenUnblocked() async throws {
        let (connection, channel, queue) = try await Broker.exclusiveQueue(confirms: true)
        let events = EventRecorder(connection)
        try await duringMemoryAlarm {
            // The broker blocks a connection when it publishes during the alarm.
            var confirmations = [try channel.publishPipelined([0], exchange: "", routingKey: queue)]
            try await events.waitFor { if case .blocked = $0 { true } else { false } }
            for index in 1...5 {
                confirmations.append(try channel.publishPipelined([UInt8(index)], exchange: "", routingKey: queue))
            }

            try await TestBroker.ctl("set_vm_memory_high_watermark", Self.normalWatermark)
            try await events.waitFor { $0 == .unblocked }
            try await within(.seconds(30)) { [confirmations] in
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
        var configuration = try TestBroker.configuration()
        configuration.connectTimeout = .seconds(2)
        let connection = try await AMQPConnection.connect(configuration)
        let channel = try await connection.openChannel()
        let queue = try await channel.declareQueue("", durable: false, exclusive: true).name
        try await channel.enablePublisherConfirms()
        let events = EventRecorder(connection)
        try await duringMemoryAlarm {
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

    /// Runs `body` while a memory alarm blocks publishers, and lifts the alarm afterwards whatever happened.
    private func duringMemoryAlarm(_ body: () async throws -> Void) async throws {
        try await TestBroker.ctl("set_vm_memory_high_watermark", "0.0000001")
        do {
            try await body()
        } catch {
            _ = try? await TestBroker.ctl("set_vm_memory_high_watermark", Self.normalWatermark)
            throw error
        }
        try await TestBroker.ctl("set_vm_memory_high_watermark", Self.normalWatermark)
    }
}
