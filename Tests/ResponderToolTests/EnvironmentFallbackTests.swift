import AMQP
import BrokerHarness
import Foundation
import Logging
import Responder
import ResponderIntake
import ResponderPostgres
import ResponderWorker
import Testing
import WorkerHarness

@testable import ResponderCommands

/// Every setting of every command: the flag when given, else the environment variable, else the default; the
/// broker URL also from a mounted secret file.
@Suite struct EnvironmentFallbackTests {
    @Test func aFlagWinsOverTheEnvironmentWhichWinsOverTheDefault() throws {
        let environment = EnvironmentFallback(environment: ["RESPONDER_PREFETCH": "50"])
        #expect(try Settings.prefetch.resolve("10", environment) == 10)
        #expect(try Settings.prefetch.resolve(nil, environment) == 50)
        #expect(try Settings.prefetch.resolve(nil, EnvironmentFallback(environment: [:])) == 200)
        #expect(try Settings.workerID.resolveOptional("flag", environment) == "flag")
        #expect(try Settings.categories.resolveOptional(nil, environment) == nil)
    }

    @Test func anEmptyVariableCountsAsUnset() throws {
        let environment = EnvironmentFallback(environment: ["RESPONDER_CONCURRENCY": "", "RESPONDER_STATE": ""])
        #expect(try Settings.concurrency.resolve(nil, environment) == 64)
        #expect(try Settings.state.resolveOptional(nil, environment) == nil)
    }

    @Test func aVariableThatDoesNotParseIsAnErrorNamingIt() {
        let environment = EnvironmentFallback(environment: ["RESPONDER_CONCURRENCY": "many"])
        #expect(throws: SettingError("RESPONDER_CONCURRENCY=many: must be a whole number from 1 to 10000")) {
            try Settings.concurrency.resolve(nil, environment)
        }
    }

    @Test func theBrokerURLComesFromTheFlagThenTheVariableThenTheSecretFileThenTheDefault() throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let secret = folder.appendingPathComponent("amqp-url")
        try "amqp://app:from-file@broker:5672/%2F\n".write(to: secret, atomically: true, encoding: .utf8)
        let everything = EnvironmentFallback(environment: [
            "RESPONDER_AMQP_URL": "amqp://app:from-env@broker:5672/%2F", "RESPONDER_AMQP_URL_FILE": secret.path,
        ])
        #expect(try everything.brokerURL("amqp://app:from-flag@broker:5672/%2F") == "amqp://app:from-flag@broker:5672/%2F")
        #expect(try everything.brokerURL(nil) == "amqp://app:from-env@broker:5672/%2F")
        let fileOnly = EnvironmentFallback(environment: ["RESPONDER_AMQP_URL_FILE": secret.path])
        #expect(try fileOnly.brokerURL(nil) == "amqp://app:from-file@broker:5672/%2F", "trimmed of its line break")
        #expect(try EnvironmentFallback(environment: [:]).brokerURL(nil) == "amqp://guest:guest@127.0.0.1:5672/%2F")
    }

    @Test func anUnreadableSecretFileIsAnErrorNamingThePath() {
        let environment = EnvironmentFallback(environment: ["RESPONDER_AMQP_URL_FILE": "/nonexistent/amqp-url"])
        #expect {
            try environment.brokerURL(nil)
        } throws: { error in
            "\(error)".contains("/nonexistent/amqp-url")
        }
    }

    @Test func topologyNamesFollowTheSameOrder() throws {
        let environment = EnvironmentFallback(environment: [
            "RESPONDER_INPUT_EXCHANGE": "env.in", "RESPONDER_INPUT_QUEUE": "env.work",
            "RESPONDER_RETRY_DELAYS": "5, 50", "RESPONDER_DELIVERY_LIMIT": "7",
        ])
        let topology = try TopologyOptions.parse(["--input-exchange", "flag.in"]).topology(environment)
        #expect(topology.inputExchange == "flag.in")
        #expect(topology.inputQueue == "env.work")
        #expect(topology.outputExchange == "notifications.action-updates")
        #expect(topology.retryDelays == [5, 50])
        #expect(topology.deliveryLimit == 7)
        let defaults = try TopologyOptions.parse([]).topology(EnvironmentFallback(environment: [:]))
        #expect(defaults == Topology())
    }

    @Test(arguments: ["0", "1,-2", "1.5", "soon", "1,,2", "5,"])
    func retryDelaysMustBePositiveWholeSeconds(delays: String) {
        #expect(throws: SettingError.self) {
            try TopologyOptions.parse(["--retry-delays", delays]).topology(EnvironmentFallback(environment: [:]))
        }
    }

    @Test(arguments: [["--notification-retention-days", "0"], ["--inbox-retention-hours", "0"]])
    func retentionPeriodsMustBePositive(arguments: [String]) async {
        await #expect(throws: SettingError.self) {
            try await HandlerOptions<StateOption>.parse(arguments + ["--state", ":memory:"])
                .openStore(EnvironmentFallback(environment: [:]), logger: Logger(label: "test"))
        }
    }

    @Test func brokerSettingsComeFromFlagsAndTheEnvironment() throws {
        let environment = EnvironmentFallback(environment: [
            "RESPONDER_AMQP_URL": "amqp://app:secret@broker:5673/orders", "RESPONDER_HEARTBEAT": "11",
        ])
        let fromEnvironment = try BrokerOptions.parse([]).configuration(environment)
        #expect(fromEnvironment.host == "broker")
        #expect(fromEnvironment.port == 5673)
        #expect(fromEnvironment.heartbeat == .seconds(11))
        #expect(!"\(fromEnvironment)".contains("secret"), "the password never shows")
        let flagged = try BrokerOptions.parse(["--heartbeat", "3"]).configuration(environment)
        #expect(flagged.heartbeat == .seconds(3))
    }

    @Test func tlsFilesNeedAnAMQPSURL() throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ca = try Self.file("ca.pem", in: folder)
        let environment = EnvironmentFallback(environment: ["RESPONDER_AMQP_CA_FILE": ca])
        #expect(throws: SettingError("TLS files are given but the broker URL is not amqps://")) {
            try BrokerOptions.parse([]).configuration(environment)
        }
    }

    @Test func tlsFilesApplyToAnAMQPSURL() throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (ca, cert, key) = (
            try Self.file("ca.pem", in: folder), try Self.file("client.pem", in: folder),
            try Self.file("client.key", in: folder)
        )
        let environment = EnvironmentFallback(environment: [
            "RESPONDER_AMQP_URL": "amqps://app:pw@broker:5671/%2F", "RESPONDER_AMQP_CA_FILE": ca,
        ])
        let configuration = try BrokerOptions.parse(["--cert-file", cert, "--key-file", key])
            .configuration(environment)
        #expect(configuration.tls?.caCertificatePath == ca)
        #expect(configuration.tls?.clientCertificatePath == cert)
        #expect(configuration.tls?.clientKeyPath == key)
    }

    /// An empty file named `name` in `folder`, by path.
    static func file(_ name: String, in folder: URL) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data().write(to: url)
        return url.path
    }

    @Test func theStateFileFollowsTheSameOrder() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fromEnvironment = folder.appendingPathComponent("env.sqlite").path
        let fromFlag = folder.appendingPathComponent("flag.sqlite").path
        let environment = EnvironmentFallback(environment: ["RESPONDER_STATE": fromEnvironment])
        _ = try await HandlerOptions<StateOption>.parse([]).openStore(environment, logger: Logger(label: "test"))
        #expect(FileManager.default.fileExists(atPath: fromEnvironment))
        _ = try await HandlerOptions<StateOption>.parse(["--state", fromFlag]).openStore(environment, logger: Logger(label: "test"))
        #expect(FileManager.default.fileExists(atPath: fromFlag))
    }

    /// A PostgreSQL URL's password can stay off command lines and out of the environment: RESPONDER_STATE_FILE
    /// names a file holding the URL (a mounted secret). RESPONDER_STATE and the flag win over it.
    @Test func theStateURLCanComeFromAFile() throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("state-url")
        try "postgres://fleet:s3cret@db:5432/responder?sslmode=require\n".write(to: file, atomically: true, encoding: .utf8)
        let fromFile = EnvironmentFallback(environment: ["RESPONDER_STATE_FILE": file.path])
        let text = try StateOption.parse([]).stateText(fromFile)
        guard let url = try StateLocation(text).postgresURL else {
            Issue.record("not a PostgreSQL location")
            return
        }
        #expect(url.host == "db" && url.tlsMode == .require)
        #expect(!"\(StateLocation.postgres(url))".contains("s3cret"))
        let both = EnvironmentFallback(environment: ["RESPONDER_STATE_FILE": file.path, "RESPONDER_STATE": ":memory:"])
        #expect(try StateOption.parse([]).stateText(both) == ":memory:")
        #expect(try StateOption.parse(["--state", "x.sqlite"]).stateText(fromFile) == "x.sqlite")
        let missing = EnvironmentFallback(environment: ["RESPONDER_STATE_FILE": folder.appendingPathComponent("none").path])
        #expect(throws: SettingError.self) { try StateOption.parse([]).stateText(missing) }
    }

    /// Only `run` takes its store from the environment: `replay` keeps its state in memory and `migrate` wants
    /// the command line to name the store, whatever RESPONDER_STATE or RESPONDER_STATE_FILE say.
    @Test func replayAndMigrateTakeTheirStoreFromTheCommandLineAlone() throws {
        let environment = EnvironmentFallback(environment: [
            "RESPONDER_STATE": "production.sqlite", "RESPONDER_STATE_FILE": "/run/secrets/state-url",
        ])
        #expect(try ReplayStateOption.parse([]).location(environment) == .memory)
        #expect(try ReplayStateOption.parse(["--state", "x.sqlite"]).location(environment) == .sqlite(path: "x.sqlite"))
        #expect(throws: SettingError.self) { try NamedStateOption.parse([]).location(environment) }
        #expect(try NamedStateOption.parse(["--state", "x.sqlite"]).location(environment) == .sqlite(path: "x.sqlite"))
    }
}
