import AMQP
import ArgumentParser

/// The broker connection options shared by every command that talks to RabbitMQ.
struct BrokerOptions: ParsableArguments {
    @Option(name: Settings.amqpURL.name, help: Settings.amqpURL.help.valueName("url"))
    var url: String?

    @Option(name: Settings.caFile.name, help: Settings.caFile.help) var caFile: String?
    @Option(name: Settings.certFile.name, help: Settings.certFile.help) var certFile: String?
    @Option(name: Settings.keyFile.name, help: Settings.keyFile.help) var keyFile: String?
    @Option(name: Settings.heartbeat.name, help: Settings.heartbeat.help) var heartbeat: String?
}

extension BrokerOptions {
    /// The connection settings these options and the environment describe.
    func configuration(_ environment: EnvironmentFallback) throws(SettingError) -> AMQPConfiguration {
        let url = try environment.brokerURL(url)
        var configuration: AMQPConfiguration
        do {
            configuration = try AMQPConfiguration(url: url)
        } catch {
            throw SettingError("the broker URL is not one: \(error)")
        }
        configuration.heartbeat = .seconds(try Settings.heartbeat.resolve(heartbeat, environment))
        let ca = try Settings.caFile.resolveOptional(caFile, environment)
        let cert = try Settings.certFile.resolveOptional(certFile, environment)
        let key = try Settings.keyFile.resolveOptional(keyFile, environment)
        if var tls = configuration.tls {
            tls.caCertificatePath = ca ?? tls.caCertificatePath
            tls.clientCertificatePath = cert
            tls.clientKeyPath = key
            configuration.tls = tls
        } else if ca != nil || cert != nil || key != nil {
            throw SettingError("TLS files are given but the broker URL is not amqps://")
        }
        return configuration
    }
}

extension ArgumentHelp {
    /// This help with the option's value shown as `<name>`.
    func valueName(_ name: String) -> ArgumentHelp {
        var help = self
        help.valueName = name
        return help
    }
}
