import AMQP
import BrokerHarness
import Foundation
import Testing

@Suite("Connections", .enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"))
struct ConnectionTests {
    /// A connection with a heartbeat of 1 s through a relay that can go silent, a channel and an exclusive queue.
    private func connectThroughRelay(
        name: String = #function
    ) async throws -> (FaultyProxy, AMQPConnection, AMQPChannel, String) {
        let broker = try AMQPConfiguration(url: TestBroker.url ?? "")
        let relay = try FaultyProxy(toPort: broker.port)
        var configuration = try TestBroker.configuration(name: name)
        configuration.host = "127.0.0.1"
        configuration.port = relay.port
        configuration.heartbeat = .seconds(1)
        do {
            let connection = try await AMQPConnection.connect(configuration)
            let channel = try await connection.openChannel()
            let queue = try await channel.declareQueue("", durable: false, exclusive: true).name
            return (relay, connection, channel, queue)
        } catch {
            relay.stop()
            throw error
        }
    }

    @Test("the broker force-closing the connection ends the delivery sequence with a connection error within seconds")
    func forcedClose() async throws {
        let configuration = try TestBroker.configuration()
        let name = try #require(configuration.connectionName)
        let connection = try await AMQPConnection.connect(configuration)
        let channel = try await connection.openChannel()
        let queue = try await channel.declareQueue("", durable: false, exclusive: true).name
        let collector = DeliveryCollector(try await channel.consume(queue: queue))
        try await channel.publish([1], exchange: "", routingKey: queue)
        try await collector.waitFor(1)

        let properties = try #require(try await TestBroker.connectionLine(named: name))
        for capability in ["connection.blocked", "consumer_cancel_notify", "publisher_confirms", "basic.nack"] {
            #expect(properties.contains(capability))
        }

        #expect(try await TestBroker.forceClose(connectionsNamed: name) == 1)
        let forced = AMQPError.connectionClosed(
            replyCode: 320, replyText: "CONNECTION_FORCED - closed by a test")
        #expect(try await collector.waitForEnd() == .failed(forced))
        // Blocked and unblocked may come first: the blocked-connection tests raise alarms on the same broker.
        let closing = try await within(hangGuard) {
            for await case .closed(let error) in connection.events { return error }
            return nil
        }
        #expect(closing == forced)
        #expect(!connection.isOpen)
        #expect(!channel.isOpen)
        #expect(forced.isConnectionError)
        await #expect(throws: forced) { try await connection.openChannel() }
        #expect(throws: forced) { try channel.publishPipelined([2], exchange: "", routingKey: queue) }
    }

    @Test("a broker that goes silent is detected within two heartbeat intervals, failing everything pending")
    func heartbeatTimeout() async throws {
        let (relay, connection, channel, queue) = try await connectThroughRelay()
        defer { relay.stop() }
        let collector = DeliveryCollector(try await channel.consume(queue: queue))
        try await channel.enablePublisherConfirms()

        relay.silence()
        let silencedAt = ContinuousClock.now
        let pending = try channel.publishPipelined([1], exchange: "", routingKey: queue)
        let call = Task { try await channel.declareQueue(Broker.uniqueName(), durable: false, autoDelete: true) }
        let end = try await collector.waitForEnd(limit: .seconds(15))
        let detectedAfter = ContinuousClock.now - silencedAt

        guard case .failed(let error) = end, case .library(let status, let message) = error else {
            Issue.record("the consumer ended with \(end) instead of a heartbeat timeout")
            return
        }
        #expect(status == -0x000F, "AMQP_STATUS_HEARTBEAT_TIMEOUT, got \(message)")
        #expect(error.isConnectionError)
        // Two heartbeat intervals plus the I/O thread's wake-up, with room for a loaded CI machine: without heartbeat
        // detection a silent peer goes unnoticed for minutes, so the bound still tells the two apart.
        #expect(detectedAfter < .seconds(10), "heartbeat 1 s, detected after \(detectedAfter)")
        await #expect(throws: error) { try await pending.confirmed() }
        await #expect(throws: error) { try await call.value }
        #expect(!connection.isOpen)
    }

    @Test("a broker that stops taking bytes in the middle of a large write is given up after two heartbeat intervals")
    func stalledWriteTimesOut() async throws {
        let (relay, connection, channel, queue) = try await connectThroughRelay()
        defer { relay.stop() }
        try await channel.enablePublisherConfirms()

        relay.silence()
        let silencedAt = ContinuousClock.now
        // 32 MiB: more than the kernel buffers between the client and the silent relay hold, so the I/O thread
        // is left waiting for the socket to take more.
        let body = [UInt8](repeating: 7, count: 1 << 20)
        let pending = try (0..<32).map { _ in try channel.publishPipelined(body, exchange: "", routingKey: queue) }
        let end = try await within(.seconds(30)) {
            for await case .closed(let error) in connection.events { return error }
            return nil
        }
        let detectedAfter = ContinuousClock.now - silencedAt
        guard case .library(let status, let message)? = end else {
            Issue.record("the connection ended with \(String(describing: end)) instead of a heartbeat timeout")
            return
        }
        #expect(status == -0x000F, "AMQP_STATUS_HEARTBEAT_TIMEOUT, got \(message)")
        #expect(detectedAfter < .seconds(10), "heartbeat 1 s, detected after \(detectedAfter)")
        await #expect(throws: AMQPError.self) { try await pending.last?.confirmed() }
        #expect(!connection.isOpen)
    }

    @Test("heartbeats keep an idle connection open")
    func idleConnectionStaysOpen() async throws {
        let connection = try await Broker.connect(heartbeat: .seconds(1))
        let channel = try await connection.openChannel()
        let queue = try await channel.declareQueue("", durable: false, exclusive: true).name
        // The broker drops a client that misses two heartbeats, here after about 2 s.
        try await Task.sleep(for: .milliseconds(3500))
        #expect(connection.isOpen)
        try await channel.enablePublisherConfirms()
        try await channel.publish([1], exchange: "", routingKey: queue)
        #expect(try await channel.get(queue: queue)?.body == [1])
        await connection.close()
    }

    @Test("closing the connection ends consumers with closed and reports the end")
    func clientClose() async throws {
        let (connection, channel, queue) = try await Broker.exclusiveQueue()
        let collector = DeliveryCollector(try await channel.consume(queue: queue))
        await connection.close()
        #expect(!connection.isOpen)
        #expect(try await collector.waitForEnd() == .failed(.closed))
        let events = await connection.events.reduce(into: []) { $0.append($1) }
        #expect(events.last == .closed(nil))
        #expect(events.filter { if case .closed = $0 { true } else { false } }.count == 1)
        await #expect(throws: AMQPError.closed) { try await connection.openChannel() }
        await connection.close()
    }

    @Test("a wrong password is refused with 403 and the error does not contain it")
    func wrongPassword() async throws {
        var configuration = try TestBroker.configuration()
        configuration.password = "not-the-password-\(UUID())"
        let password = configuration.password
        await #expect {
            try await AMQPConnection.connect(configuration)
        } throws: { error in
            guard case .connectionClosed(403, let text) = error as? AMQPError else { return false }
            return text.contains("ACCESS_REFUSED") && !"\(error)".contains(password)
        }
    }

    @Test("an unknown virtual host is refused with 530")
    func unknownVirtualHost() async throws {
        var configuration = try TestBroker.configuration()
        configuration.virtualHost = Broker.uniqueName("vhost")
        await #expect {
            try await AMQPConnection.connect(configuration)
        } throws: { error in
            guard case .connectionClosed(530, _) = error as? AMQPError else { return false }
            return true
        }
    }

    /// librabbitmq says only "a socket error occurred"; the error says what happened and where, never the password.
    @Test("nobody listening gives a library error that says the connection was refused, and by which address")
    func nobodyListening() async throws {
        var configuration = try TestBroker.configuration()
        configuration.host = "127.0.0.1"
        configuration.port = try FreePort.find()
        configuration.password = "connect-failure-secret"
        let port = configuration.port
        await #expect {
            try await AMQPConnection.connect(configuration)
        } throws: { error in
            guard case .library(let status, _) = error as? AMQPError else { return false }
            let text = "\(error)"
            return status < 0 && text.contains("connection refused by 127.0.0.1:\(port)")
                && !text.contains("connect-failure-secret")
        }
    }

    @Test("amqps to a plain AMQP port fails in the TLS handshake, after loading the system CA bundle")
    func tlsAgainstPlainPort() async throws {
        let plain = try AMQPConfiguration(url: TestBroker.url ?? "")
        var configuration = try AMQPConfiguration(url: "amqps://guest:guest@127.0.0.1:\(plain.port)/")
        configuration.connectTimeout = .seconds(5)
        await #expect {
            try await AMQPConnection.connect(configuration)
        } throws: { error in
            // AMQP_STATUS_SSL_ERROR and its relatives are -0x200 to -0x2FF.
            guard case .library(let status, _) = error as? AMQPError else { return false }
            return (-0x2FF ... -0x200).contains(status)
        }
    }

    @Test("a CA file that does not exist fails before connecting")
    func missingCAFile() async throws {
        var configuration = try AMQPConfiguration(url: TestBroker.url ?? "")
        configuration.tls = TLSConfiguration(caCertificatePath: "/nonexistent/ca.pem")
        await #expect {
            try await AMQPConnection.connect(configuration)
        } throws: { error in
            guard case .library = error as? AMQPError else { return false }
            return true
        }
    }

    @Test("many channels open and close on one connection")
    func manyChannels() async throws {
        let connection = try await Broker.connect()
        var channels: [AMQPChannel] = []
        for _ in 0..<50 {
            channels.append(try await connection.openChannel())
        }
        #expect(Set(channels.map(\.channelNumber)).count == 50)
        for channel in channels {
            await channel.close()
            #expect(!channel.isOpen)
        }
        let reopened = try await connection.openChannel()
        #expect(reopened.channelNumber == 51)
        await connection.close()
    }
}
