import AMQP
import BrokerHarness
import Foundation

extension QueueProbe {
    /// A probe like ``open(_:name:)`` on the broker at `url` rather than the test broker: for a test that runs a
    /// broker node of its own.
    public static func open(_ topology: TestTopology, url: String, name: String = #function) async throws -> QueueProbe {
        var configuration = try AMQPConfiguration(url: url)
        configuration.connectionName = TestBroker.connectionName(name)
        let channel = try await AMQPConnection.connect(configuration).openChannel()
        try await channel.enablePublisherConfirms()
        try await topology.declare(on: channel)
        return QueueProbe(channel: channel, topology: topology)
    }
}
