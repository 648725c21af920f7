import AMQP
import Logging

extension BrokerOptions {
    /// A connection for a command-line tool, named after the command so operators see it in the broker.
    func connect(_ environment: EnvironmentFallback, name: String, logger: Logger) async throws -> AMQPConnection {
        var configuration = try configuration(environment)
        configuration.connectionName = "responder \(name)"
        return try await AMQPConnection.connect(configuration, logger: logger)
    }
}
