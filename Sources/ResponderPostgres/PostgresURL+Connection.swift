import PostgresNIO
import Responder

extension PostgresURL {
    /// A connection (``connectionConfiguration()``, whose session starts with `startupParameters`), the only way
    /// the store opens one: for the migrations, the schema check and the pool (``PostgresConnectionPool``). A
    /// ``CleartextPasswordGuard`` sits first in its pipeline: a server (or a man in the middle who refuses TLS) that
    /// asks for the password in cleartext on a connection that is not TLS-verified (no TLS, or TLS that verifies
    /// nothing) gets the connection closed, not the password. Also says whether the server took the connection into TLS.
    func connect(
        id: Int, startupParameters: [(String, String)], logger: Logger
    ) async throws -> (connection: PostgresConnection, usesTLS: Bool) {
        let configuration = try connectionConfiguration()
        let passwordGuard = CleartextPasswordGuard(requestsTLS: tlsMode != .disable, verifiesServer: verifiesServer)
        let channel = try await ClientBootstrap(group: PostgresConnection.defaultEventLoopGroup)
            .connectTimeout(.seconds(Int64(connectTimeout.components.seconds)))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(passwordGuard) }
            }
            .connect(host: host, port: port).get()
        var established = PostgresConnection.Configuration(
            establishedChannel: channel, tls: configuration.tls, username: username, password: password,
            database: database)
        established.options = configuration.options
        established.options.additionalStartupParameters = startupParameters
        // As postgres-nio names a server it connects to itself: a host name for SNI and verification, an address
        // checked against the peer's.
        if (try? SocketAddress(ipAddress: host, port: port)) == nil { established.options.tlsServerName = host }
        do {
            // On the channel's own event loop: postgres-nio sets up its handlers there synchronously.
            let connection = try await PostgresConnection.connect(
                on: channel.eventLoop, configuration: established, id: id, logger: logger)
            return (connection, passwordGuard.acceptedTLS)
        } catch {
            guard passwordGuard.refused else { throw error }
            throw StateStoreUnavailable(
                reason: "PostgreSQL: the server asked for the password in cleartext on a connection that is not "
                    + "TLS-verified; refused without sending it (use sslmode=verify-full, or scram-sha-256 on the server)")
        }
    }
}

extension PostgresURL {
    /// The URL the connection pool uses once a connection to this server went into TLS: `prefer-verified` becomes
    /// `verify-full`, so no later connection of the pool can be talked down to cleartext by a man in the middle who
    /// refuses TLS, who could then read and change the state (each connection's guard keeps the password from him
    /// in any mode). Any other mode is kept as it is.
    func requiringTLS() -> PostgresURL {
        guard tlsMode == .preferVerified else { return self }
        var url = self
        url.tlsMode = .verifyFull
        return url
    }
}
