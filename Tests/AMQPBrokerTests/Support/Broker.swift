import AMQP
import BrokerHarness
import Foundation

/// What the AMQP client's tests start from on the test broker (``TestBroker``): connections with a heartbeat of
/// their choice, a channel with an exclusive queue, and names no other test uses.
enum Broker {
    static func connect(name: String = #function, heartbeat: Duration = .seconds(30)) async throws -> AMQPConnection {
        var configuration = try TestBroker.configuration(name: name)
        configuration.heartbeat = heartbeat
        return try await AMQPConnection.connect(configuration)
    }

    /// What most tests start from: a connection, a channel on it, and a server-named queue only that connection
    /// uses; `confirms` puts the channel in publisher-confirm mode.
    static func exclusiveQueue(
        name: String = #function, confirms: Bool = false, arguments: FieldTable = [:]
    ) async throws -> (AMQPConnection, AMQPChannel, String) {
        let connection = try await connect(name: name)
        let channel = try await connection.openChannel()
        let queue = try await channel.declareQueue("", durable: false, exclusive: true, arguments: arguments).name
        if confirms {
            try await channel.enablePublisherConfirms()
        }
        return (connection, channel, queue)
    }

    /// A name no other test uses, for queues and exchanges.
    static func uniqueName(_ prefix: String = "amqp-test") -> String {
        "\(prefix)-\(UUID().uuidString.prefix(12))"
    }
}
