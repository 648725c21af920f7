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

    /// The pool's configuration.
    func clientConfiguration(statementTimeout: Duration) -> PostgresClient.Configuration {
        let tls: PostgresClient.Configuration.TLS =
            switch (tlsMode, tlsConfiguration) {
            case (.disable, _), (_, nil): .disable
            case (.prefer, let configuration?), (.preferVerified, let configuration?): .prefer(configuration)
            case (_, let configuration?): .require(configuration)
            }
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: tls)
        configuration.options.maximumConnections = poolSize
        configuration.options.connectTimeout = connectTimeout
        configuration.options.additionalStartupParameters = startupParameters(statementTimeout: statementTimeout)
        return configuration
    }

    /// One connection's configuration, for the migrations: a single connection fails at once on a wrong host,
    /// port or password, where the pool would retry until its circuit breaker opens (postgres-nio#565).
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
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
        // Migrations may wait for another worker's migrations: no statement timeout, a lock wait of a minute.
        configuration.options.additionalStartupParameters = [
            ("application_name", "responder migrate"), ("lock_timeout", "60000"),
        ]
        return configuration
    }

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
