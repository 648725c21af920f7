import AMQP
import BrokerHarness
import Foundation
import Testing

/// `amqps://` against the test broker's TLS listener (scripts/broker: a throwaway CA, a certificate for localhost,
/// client certificates asked for but not required), found through `AMQPS_URL` and `AMQP_TLS_DIR`.
@Suite("TLS", .enabled(if: TLSBroker.isAvailable, "needs the broker's TLS listener: run scripts/test"))
struct TLSTests {
    @Test("with the broker's CA, a confirmed publish and its delivery cross an encrypted connection")
    func roundTripOverTLS() async throws {
        let connection = try await AMQPConnection.connect(try TLSBroker.configuration())
        let channel = try await connection.openChannel()
        let queue = try await channel.declareQueue("", durable: false, exclusive: true).name
        try await channel.enablePublisherConfirms()
        let collector = DeliveryCollector(try await channel.consume(queue: queue))
        try await channel.publish(Array("over TLS".utf8), exchange: "", routingKey: queue)
        try await collector.waitFor(1)
        #expect(collector.deliveries.first?.body == Array("over TLS".utf8))
        await connection.close()
    }

    @Test("a burst of publishes larger than the socket's buffers crosses TLS whole through a slow network")
    func burstOverTLS() async throws {
        try await publishBurstThroughSlowNetwork(try TLSBroker.configuration())
    }

    @Test("the broker's certificate must name the host: 127.0.0.1 is refused unless hostname checks are off")
    func hostnameVerification() async throws {
        var configuration = try TLSBroker.configuration()
        configuration.host = "127.0.0.1"
        await #expect(throws: AMQPError.self) { try await AMQPConnection.connect(configuration) }
        configuration.tls?.verifyHostname = false
        let connection = try await AMQPConnection.connect(configuration)
        await connection.close()
    }

    @Test("a broker certificate from a CA the client does not trust is refused (the system bundle lacks the test CA)")
    func untrustedCA() async throws {
        var configuration = try TLSBroker.configuration()
        configuration.tls?.caCertificatePath = nil
        await #expect(throws: AMQPError.self) { try await AMQPConnection.connect(configuration) }
    }

    @Test("a client certificate is presented to the broker, which sees its subject")
    func clientCertificate() async throws {
        var configuration = try TLSBroker.configuration()
        configuration.tls?.clientCertificatePath = TLSBroker.file("client.pem")
        configuration.tls?.clientKeyPath = TLSBroker.file("client.key")
        let name = try #require(configuration.connectionName)
        let connection = try await AMQPConnection.connect(configuration)
        let line = try #require(try await TestBroker.connectionLine(named: name, columns: "ssl", "peer_cert_subject"))
        #expect(line.hasPrefix("true"), "the broker sees a TLS connection")
        #expect(line.contains("CN=responder test client"))
        await connection.close()
    }
}

/// The test broker's TLS listener.
enum TLSBroker {
    static let url = ProcessInfo.processInfo.environment["AMQPS_URL"]
    static let folder = ProcessInfo.processInfo.environment["AMQP_TLS_DIR"]
    static var isAvailable: Bool { url != nil && folder != nil && TestBroker.isAvailable }

    static func file(_ name: String) -> String {
        URL(fileURLWithPath: folder ?? "").appendingPathComponent(name).path
    }

    /// The listener's configuration: its CA trusted, peer and hostname verification on, a connection name to find
    /// the connection by.
    static func configuration(name: String = #function) throws -> AMQPConfiguration {
        var configuration = try AMQPConfiguration(url: url ?? "")
        configuration.tls?.caCertificatePath = file("ca.pem")
        configuration.connectionName = TestBroker.connectionName(name)
        return configuration
    }
}
