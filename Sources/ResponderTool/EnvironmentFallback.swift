import AMQP
import ArgumentParser
import Foundation
import ResponderWorker

/// Resolves a setting the way every `responder` command does: the flag when given, else the environment
/// variable, else the default. Flags win so a one-off run can override a deployment's environment.
struct EnvironmentFallback {
    var environment: [String: String] = ProcessInfo.processInfo.environment

    /// The flag's value, or the environment variable parsed as `T`, or `fallback`.
    func resolve<T: LosslessStringConvertible>(_ flag: T?, _ variable: String, default fallback: T) throws -> T {
        if let flag { return flag }
        guard let text = environment[variable], !text.isEmpty else { return fallback }
        guard let value = T(text) else {
            throw ValidationError("\(variable)=\(text) is not a valid value")
        }
        return value
    }

    /// The flag's value, or the environment variable, or nil when neither is set.
    func resolve(_ flag: String?, _ variable: String) -> String? {
        if let flag { return flag }
        guard let text = environment[variable], !text.isEmpty else { return nil }
        return text
    }

    /// The broker URL: `--amqp-url`, else `RESPONDER_AMQP_URL`, else the contents of the file
    /// `RESPONDER_AMQP_URL_FILE` names (a mounted secret), else a local broker.
    func brokerURL(_ flag: String?) throws -> String {
        if let flag { return flag }
        if let url = environment["RESPONDER_AMQP_URL"], !url.isEmpty { return url }
        return try fileContents("RESPONDER_AMQP_URL_FILE") ?? BrokerOptions.defaultURL
    }

    /// The state location: `--state`, else `RESPONDER_STATE`, else the contents of the file `RESPONDER_STATE_FILE`
    /// names (a mounted secret, so a PostgreSQL password stays off command lines and the environment), else
    /// `fallback`.
    func stateLocation(_ flag: String?, default fallback: String) throws -> String {
        if let flag { return flag }
        if let location = environment["RESPONDER_STATE"], !location.isEmpty { return location }
        return try fileContents("RESPONDER_STATE_FILE") ?? fallback
    }

    /// The trimmed contents of the file the environment variable `variable` names, or nil when it is not set.
    private func fileContents(_ variable: String) throws -> String? {
        guard let path = environment[variable], !path.isEmpty else { return nil }
        do {
            return try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        } catch {
            throw ValidationError("\(variable) names \(path), which cannot be read")
        }
    }
}

/// The broker connection options shared by every command that talks to RabbitMQ.
struct BrokerOptions: ParsableArguments {
    static let defaultURL = "amqp://guest:guest@127.0.0.1:5672/%2F"

    @Option(
        name: .customLong("amqp-url"),
        help: ArgumentHelp(
            "Broker URL, amqp:// or amqps://. (env: RESPONDER_AMQP_URL, or RESPONDER_AMQP_URL_FILE naming a file that holds it; default: \(defaultURL))",
            valueName: "url"))
    var url: String?

    @Option(help: "TLS: CA certificate file for amqps://. (env: RESPONDER_AMQP_CA_FILE; default: the system CA bundle)")
    var caFile: String?

    @Option(help: "TLS: client certificate file (PEM). (env: RESPONDER_AMQP_CERT_FILE; default: none)")
    var certFile: String?

    @Option(help: "TLS: client private key file (PEM). (env: RESPONDER_AMQP_KEY_FILE; default: none)")
    var keyFile: String?

    @Option(help: "Heartbeat interval in seconds. (env: RESPONDER_HEARTBEAT; default: 30)")
    var heartbeat: Int?
}

/// Topology names, for the commands that declare or use them.
struct TopologyOptions: ParsableArguments {
    @Option(help: "Input exchange (topic). (env: RESPONDER_INPUT_EXCHANGE; default: notifications.responses)")
    var inputExchange: String?

    @Option(help: "Input quorum queue. (env: RESPONDER_INPUT_QUEUE; default: responder.responses)")
    var inputQueue: String?

    @Option(help: "Output exchange (topic). (env: RESPONDER_OUTPUT_EXCHANGE; default: notifications.action-updates)")
    var outputExchange: String?

    @Option(help: "Output queue. (env: RESPONDER_OUTPUT_QUEUE; default: responder.action-updates)")
    var outputQueue: String?

    @Option(help: "Dead-letter exchange. (env: RESPONDER_DEAD_LETTER_EXCHANGE; default: responder.dead-letter)")
    var deadLetterExchange: String?

    @Option(help: "Dead-letter queue. (env: RESPONDER_DEAD_LETTER_QUEUE; default: responder.dead-letter)")
    var deadLetterQueue: String?

    @Option(help: "Retry delays in seconds, comma-separated. (env: RESPONDER_RETRY_DELAYS; default: 1,10,60)")
    var retryDelays: String?

    @Option(help: "Deliveries of one input before the broker dead-letters it. (env: RESPONDER_DELIVERY_LIMIT; default: 5)")
    var deliveryLimit: Int?
}

extension TopologyOptions {
    /// The topology these options and the environment describe.
    func topology(_ fallback: EnvironmentFallback) throws -> Topology {
        var topology = Topology()
        topology.inputExchange = try fallback.resolve(inputExchange, "RESPONDER_INPUT_EXCHANGE", default: topology.inputExchange)
        topology.inputQueue = try fallback.resolve(inputQueue, "RESPONDER_INPUT_QUEUE", default: topology.inputQueue)
        topology.outputExchange = try fallback.resolve(outputExchange, "RESPONDER_OUTPUT_EXCHANGE", default: topology.outputExchange)
        topology.outputQueue = try fallback.resolve(outputQueue, "RESPONDER_OUTPUT_QUEUE", default: topology.outputQueue)
        topology.deadLetterExchange = try fallback.resolve(
            deadLetterExchange, "RESPONDER_DEAD_LETTER_EXCHANGE", default: topology.deadLetterExchange)
        topology.deadLetterQueue = try fallback.resolve(
            deadLetterQueue, "RESPONDER_DEAD_LETTER_QUEUE", default: topology.deadLetterQueue)
        topology.deliveryLimit = try fallback.resolve(deliveryLimit, "RESPONDER_DELIVERY_LIMIT", default: topology.deliveryLimit)
        let delays = try fallback.resolve(retryDelays, "RESPONDER_RETRY_DELAYS", default: "1,10,60")
        // Empty entries are kept so that "1,,2" is refused rather than read as "1,2".
        topology.retryDelays = try delays.split(separator: ",", omittingEmptySubsequences: false).map { part in
            guard let seconds = Int(part.trimmingCharacters(in: .whitespaces)), seconds > 0 else {
                throw ValidationError("retry delays must be positive whole seconds, comma-separated: \(delays)")
            }
            return seconds
        }
        return topology
    }
}

extension BrokerOptions {
    /// The connection settings these options and the environment describe.
    func configuration(_ fallback: EnvironmentFallback) throws -> AMQPConfiguration {
        var configuration = try AMQPConfiguration(url: try fallback.brokerURL(url))
        configuration.heartbeat = Duration.seconds(try fallback.resolve(heartbeat, "RESPONDER_HEARTBEAT", default: 30))
        let ca = fallback.resolve(caFile, "RESPONDER_AMQP_CA_FILE")
        let cert = fallback.resolve(certFile, "RESPONDER_AMQP_CERT_FILE")
        let key = fallback.resolve(keyFile, "RESPONDER_AMQP_KEY_FILE")
        if var tls = configuration.tls {
            tls.caCertificatePath = ca ?? tls.caCertificatePath
            tls.clientCertificatePath = cert
            tls.clientKeyPath = key
            configuration.tls = tls
        } else if ca != nil || cert != nil || key != nil {
            throw ValidationError("TLS files are given but the broker URL is not amqps://")
        }
        return configuration
    }
}
