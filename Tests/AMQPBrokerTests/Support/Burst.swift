import AMQP
import BrokerHarness
import Testing

/// Publishes 8 MiB at once, confirmed, through a proxy that passes bytes on more slowly than the client writes
/// them: more than one pass of the I/O thread buffers and than the socket takes at once, so the client's writes
/// come back short or would block (for TLS, SSL_write asks to be retried with the same bytes) and must wait for
/// the socket to drain. Every message must arrive whole.
func publishBurstThroughSlowNetwork(_ broker: AMQPConfiguration) async throws {
    var configuration = broker
    let proxy = try FaultyProxy(
        toPort: configuration.port, faults: .init(pieces: 256...2048, delayOneIn: 16, delay: .milliseconds(1)))
    defer { proxy.stop() }
    configuration.port = proxy.port
    let connection = try await AMQPConnection.connect(configuration)
    let channel = try await connection.openChannel()
    let queue = try await channel.declareQueue("", durable: false, exclusive: true).name
    try await channel.enablePublisherConfirms()
    let body = (0..<64 * 1024).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    let confirmations = try (0..<128).map { _ in try channel.publishPipelined(body, exchange: "", routingKey: queue) }
    try await within(hangGuard) {
        for confirmation in confirmations {
            try await confirmation.confirmed()
        }
    }
    #expect(try await channel.declareQueue(queue, passive: true).messageCount == 128)
    #expect(try await channel.get(queue: queue)?.body == body)
    await connection.close()
}
