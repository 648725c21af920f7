import PostgresNIO
import _ConnectionPoolModule
import Responder

/// What the store does with an error of postgres-nio: retry the statement, or report the store unavailable, or
/// let it through as the event's failure.
///
/// The store's statements are fixed; only the values bound to them come from an event. So an error is the event's
/// only when the server refuses those values (class 22, data exceptions, and class 23, integrity violations, when
/// a value breaks a constraint). Everything that says the database is not as this build expects or cannot serve
/// is the store's trouble, and waiting (or an operator) may cure it, so it pauses the worker:
/// - a lost or refused connection (class 08), a protocol or authentication exchange that went wrong, rejected
///   credentials (28) or a missing database (3D);
/// - a schema that changed under the worker: a table or column renamed or dropped (42P01, 42703), a function
///   missing during a rolling deploy (42883), a revoked grant (42501), a schema gone (3F000), a statement whose
///   plan no longer fits (0A000, "cached plan must not change result type");
/// - a server shutting down or out of resources (57, 53), a system error (58), an internal error (XX), a lock
///   held past `lock_timeout` (55P03), a read-only server (25006, a standby after a failover).
///
/// Serialization failures and deadlocks (40001, 40P01) are retryable by definition: the transaction was rolled
/// back whole. The reason names the SQLSTATE and the server's message, which never hold the password.
enum PostgresFailure {
    case retry
    case unavailable(StateStoreUnavailable)
    case other

    /// The SQLSTATE classes (first two characters) that make the store unavailable.
    static let unavailableClasses: Set<Substring> = ["08", "28", "3D", "3F", "53", "57", "58", "XX"]
    /// The single SQLSTATEs that make the store unavailable.
    static let unavailableStates: Set<String> = ["0A000", "25006", "26000", "42501", "42703", "42883", "42P01", "55P03"]

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
        if let error = error as? PostgresStatementError {
            self = error.state.map { ["40001", "40P01"].contains($0) } == true ? .retry : .other
            return
        }
        guard let error = error as? PSQLError else {
            self = .other
            return
        }
        guard error.code == .server, let state = error.serverInfo?[.sqlState] else {
            switch error.code {
            case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed,
                .sslUnsupported, .failedToAddSSLHandler, .queryCancelled, .receivedUnencryptedDataAfterSSLRequest,
                .messageDecodingFailure, .unexpectedBackendMessage, .invalidCommandTag, .unsupportedAuthMechanism,
                .authMechanismRequiresPassword, .saslError:
                let cause = error.underlying.map { ": \(String(describing: $0).prefix(200))" } ?? ""
                self = .unavailable(
                    StateStoreUnavailable(reason: "PostgreSQL: connection lost or refused (\(error.code))\(cause)"))
            default:
                self = .other
            }
            return
        }
        if ["40001", "40P01"].contains(state) {
            self = .retry
            return
        }
        guard Self.unavailableClasses.contains(state.prefix(2)) || Self.unavailableStates.contains(state) else {
            self = .other
            return
        }
        self = .unavailable(StateStoreUnavailable(reason: "PostgreSQL: \(Self.serverText(error) ?? state)"))
    }

    /// The SQLSTATE and the server's message (bounded) of a server error, nil for any other error.
    static func serverText(_ error: PSQLError) -> String? {
        guard error.code == .server, let state = error.serverInfo?[.sqlState] else { return nil }
        return "\(state) \((error.serverInfo?[.message] ?? "").prefix(200))"
    }
}
