import Testing

@testable import AMQP

@Suite("AMQP URLs")
struct AMQPConfigurationTests {
    struct Expected: Sendable, CustomTestStringConvertible {
        var url: String
        var host: String
        var port: Int
        var virtualHost: String
        var user: String
        var password: String
        var tls: Bool = false
        var testDescription: String { url }
    }

    @Test(
        "valid URLs",
        arguments: [
            Expected(url: "amqp://guest:guest@127.0.0.1:5690/%2F", host: "127.0.0.1", port: 5690, virtualHost: "/",
                     user: "guest", password: "guest"),
            Expected(url: "amqp://rabbit.example", host: "rabbit.example", port: 5672, virtualHost: "/",
                     user: "guest", password: "guest"),
            Expected(url: "amqp://host/", host: "host", port: 5672, virtualHost: "/", user: "guest", password: "guest"),
            Expected(url: "AMQPS://user:p%40ss%3Aw%2Frd@broker:5999/prod", host: "broker", port: 5999,
                     virtualHost: "prod", user: "user", password: "p@ss:w/rd", tls: true),
            Expected(url: "amqps://broker", host: "broker", port: 5671, virtualHost: "/", user: "guest",
                     password: "guest", tls: true),
            Expected(url: "amqp://only-user@host/%2Fnested%2Fvhost", host: "host", port: 5672,
                     virtualHost: "/nested/vhost", user: "only-user", password: ""),
            Expected(url: "amqp://u:p@[::1]:5673/v%20h", host: "::1", port: 5673, virtualHost: "v h", user: "u",
                     password: "p"),
            Expected(url: "amqp://u:@[fe80::1]", host: "fe80::1", port: 5672, virtualHost: "/", user: "u", password: ""),
            Expected(url: "amqp://%C3%BCser:%E2%82%AC@h%2Dost:1/%C3%A9", host: "h-ost", port: 1, virtualHost: "é",
                     user: "üser", password: "€"),
        ])
    func parses(_ expected: Expected) throws {
        let configuration = try AMQPConfiguration(url: expected.url)
        #expect(configuration.host == expected.host)
        #expect(configuration.port == expected.port)
        #expect(configuration.virtualHost == expected.virtualHost)
        #expect(configuration.user == expected.user)
        #expect(configuration.password == expected.password)
        #expect((configuration.tls != nil) == expected.tls)
    }

    @Test("defaults: heartbeat, frame size, timeout, no name, TLS verification and system CA bundle")
    func defaults() throws {
        let plain = try AMQPConfiguration(url: "amqp://host")
        #expect(plain.heartbeat == .seconds(30))
        #expect(plain.frameMax == 131_072)
        #expect(plain.connectTimeout == .seconds(10))
        #expect(plain.connectionName == nil)
        #expect(plain.tls == nil)

        let tls = try #require(try AMQPConfiguration(url: "amqps://host").tls)
        #expect(tls.verifyPeer && tls.verifyHostname)
        #expect(tls.caCertificatePath == nil)
        #expect(tls.clientCertificatePath == nil && tls.clientKeyPath == nil)
        #expect(TLSConfiguration.systemCABundlePath == "/etc/ssl/certs/ca-certificates.crt")
        #expect(AMQPConfiguration(tls: TLSConfiguration()).port == 5671)
        #expect(AMQPConfiguration().port == 5672)
    }

    @Test(
        "invalid URLs name the problem without repeating the URL",
        arguments: [
            ("rabbit.example:5672", "must start with amqp:// or amqps://"),
            ("http://s3cret@host", "scheme must be amqp or amqps"),
            ("amqp://u:s3cret@host:99999", "port must be a number from 1 to 65535"),
            ("amqp://u:s3cret@host:0", "port must be a number from 1 to 65535"),
            ("amqp://u:s3cret@host:port", "port must be a number from 1 to 65535"),
            ("amqp://u:s3cret@host:", "port must be a number from 1 to 65535"),
            ("amqp://u:s3cret@:5672", "host is missing"),
            ("amqp://u:s3cret@/vhost", "host is missing"),
            ("amqp://u:s3cret@[::1", "lacks its ']'"),
            ("amqp://u:s3cret@[::1]x", "only ':port' may follow"),
            ("amqp://u:s3cret@host/a/b", "one path segment"),
            ("amqp://u:s3cret@host/?heartbeat=5", "query parameters"),
            ("amqp://u:s3cret%zz@host", "password has a '%' not followed by two hex digits"),
            ("amqp://u%4:s3cret@host", "user name has a '%' not followed by two hex digits"),
            ("amqp://u:s3cret@host/%FF", "virtual host does not decode to UTF-8"),
        ])
    func rejects(_ url: String, _ reason: String) {
        #expect {
            try AMQPConfiguration(url: url)
        } throws: { error in
            guard case .invalidURL(let message) = error as? AMQPError else { return false }
            return message.contains(reason) && !"\(error)".contains("s3cret")
        }
    }

    @Test("description, debugDescription and dump show the password as ***")
    func redactsPassword() throws {
        var configuration = try AMQPConfiguration(url: "amqps://app:hunter2@broker:5671/prod%2Fone")
        configuration.connectionName = "responder"
        #expect(configuration.description == "amqps://app:***@broker:5671/prod%2Fone")
        #expect(configuration.debugDescription == configuration.description)
        #expect("\(configuration)" == configuration.description)
        #expect(String(reflecting: configuration) == configuration.description)
        var dumped = ""
        dump(configuration, to: &dumped)
        #expect(!dumped.contains("hunter2"))
        #expect(dumped.contains("***"))
        #expect(AMQPConfiguration(host: "::1").description == "amqp://guest:***@[::1]:5672/%2F")
    }
}
