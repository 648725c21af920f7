import PostgresNIO

extension PostgresURL {
    /// Session settings every connection of the store starts with: the schema, and the server-side timeouts that
    /// stand in for the per-query timeout postgres-nio lacks (postgres-nio#274), so a statement stuck behind a
    /// lock or a slow disk fails instead of holding a pooled connection forever.
    func startupParameters(statementTimeout: Duration) -> [(String, String)] {
        let milliseconds = statementTimeout.components.seconds * 1000
        return [
            ("application_name", "responder"), ("search_path", schema),
            ("statement_timeout", "\(milliseconds)"), ("lock_timeout", "\(milliseconds / 2)"),
        ]
    }

    /// One connection's configuration, whose session starts as the migrations' (``migrationStartupParameters``);
    /// ``connect(id:startupParameters:logger:)`` opens every connection of the store with it. Package-wide so
    /// that the tests' StoreHarness, an ordinary target that a release build compiles without testability, opens
    /// its own connections the same way.
    package func connectionConfiguration() throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS =
            switch (tlsMode, tlsConfiguration) {
            case (.disable, _), (_, nil): .disable
            case (.prefer, let configuration?), (.preferVerified, let configuration?):
                .prefer(try NIOSSLContext(configuration: configuration))
            case (_, let configuration?): .require(try NIOSSLContext(configuration: configuration))
            }
        var configuration = PostgresConnection.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: tls)
        configuration.options.connectTimeout = .nanoseconds(Int64(connectTimeout.components.seconds) * 1_000_000_000)
        configuration.options.additionalStartupParameters = Self.migrationStartupParameters
        return configuration
    }

    /// Session settings of the migrations' and the schema check's connection: migrations may wait for another
    /// worker's migrations, so no statement timeout, a lock wait of a minute.
    static let migrationStartupParameters = [("application_name", "responder migrate"), ("lock_timeout", "60000")]

    /// TLS as libpq's `sslmode` means it: `prefer` and `require` encrypt without checking the certificate unless
    /// a CA file is given, `verify-ca` checks the chain, `verify-full` the chain and the host name, as the default
    /// `prefer-verified` does whenever the server offers TLS.
    private var tlsConfiguration: TLSConfiguration? {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch tlsMode {
        case .disable: return nil
        case .prefer, .require:
            configuration.certificateVerification = rootCertificatePath == nil ? .none : .noHostnameVerification
        case .verifyCA: configuration.certificateVerification = .noHostnameVerification
        case .verifyFull, .preferVerified: configuration.certificateVerification = .fullVerification
        }
        if let rootCertificatePath { configuration.trustRoots = .file(rootCertificatePath) }
        return configuration
    }
}
