import PostgresNIO
import _ConnectionPoolModule
import Responder

/// What the store does with an error of postgres-nio: retry the statement, or report the store unavailable, or
/// let it through as the event's failure.
enum PostgresFailure {
    case retry
    case unavailable(StateStoreUnavailable)
    case other

    /// Serialization failures and deadlocks are retryable by definition (the transaction was rolled back whole).
    /// A lost or refused connection, a server shutting down or out of resources (disk, memory, connections), a
    /// timeout, a read-only server (a standby after a failover), or rejected credentials are the store's trouble,
    /// not the event's: waiting may cure them, so they pause the worker. The reason names the SQLSTATE and the
    /// server's message, which never hold the password.
    init(_ error: any Error) {
        if let error = error as? StateStoreUnavailable {
            self = .unavailable(error)
            return
        }
        if error is IOError || error is NIOConnectionError || error is ChannelError || error is NIOSSLError {
            let cause = String(describing: error).prefix(200)
            self = .unavailable(StateStoreUnavailable(reason: "PostgreSQL: connection lost or refused: \(cause)"))
            return
        }
        if error is ConnectionPoolError {
            self = .unavailable(StateStoreUnavailable(reason: "PostgreSQL: no connection could be opened"))
            return
        }
        guard let error = error as? PSQLError else {
            self = .other
            return
        }
        guard error.code == .server, let state = error.serverInfo?[.sqlState] else {
            switch error.code {
            case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed,
                .sslUnsupported, .failedToAddSSLHandler, .queryCancelled:
                let cause = error.underlying.map { ": \(String(describing: $0).prefix(200))" } ?? ""
                self = .unavailable(
                    StateStoreUnavailable(reason: "PostgreSQL: connection lost or refused (\(error.code))\(cause)"))
            default:
                self = .other
            }
            return
        }
        if state == "40001" || state == "40P01" {
            self = .retry
            return
        }
        let unavailableClasses = ["08", "53", "57", "58", "28", "3D"]
        let unavailableStates = ["55P03", "25006"]
        guard unavailableClasses.contains(String(state.prefix(2))) || unavailableStates.contains(state) else {
            self = .other
            return
        }
        let message = String((error.serverInfo?[.message] ?? "").prefix(200))
        self = .unavailable(StateStoreUnavailable(reason: "PostgreSQL: \(state) \(message)"))
    }
}
