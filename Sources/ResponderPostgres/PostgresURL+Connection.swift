import PostgresNIO
import Responder

extension PostgresURL {
    /// One connection of its own (``connectionConfiguration()``), for the migrations and the schema check, with a
    /// ``CleartextPasswordGuard`` first in its pipeline: a server (or a man in the middle who refuses TLS) that asks
    /// for the password in cleartext on a connection that is not TLS-verified gets the connection closed, not the
    /// password.
    func connect(id: Int, logger: Logger) async throws -> PostgresConnection {
        let configuration = try connectionConfiguration()
        let passwordGuard = CleartextPasswordGuard(requestsTLS: tlsMode != .disable)
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
        // As postgres-nio names a server it connects to itself: a host name for SNI and verification, an address
        // checked against the peer's.
        if (try? SocketAddress(ipAddress: host, port: port)) == nil { established.options.tlsServerName = host }
        do {
            // On the channel's own event loop: postgres-nio sets up its handlers there synchronously.
            return try await PostgresConnection.connect(
                on: channel.eventLoop, configuration: established, id: id, logger: logger)
        } catch {
            guard passwordGuard.refused else { throw error }
            throw StateStoreUnavailable(
                reason: "PostgreSQL: the server asked for the password in cleartext on a connection that is not "
                    + "TLS-verified; refused without sending it (use sslmode=verify-full, or scram-sha-256 on the server)")
        }
    }
}
