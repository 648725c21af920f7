import PostgresNIO
import Responder

/// What the store does with an error of postgres-nio: retry the statement, or report the store unavailable, or
/// let it through as the event's failure.
///
/// The store's statements are fixed; only the values bound to them come from an event. So a refusal of those values
/// (class 22, data exceptions such as a U+0000 in a text; class 23, integrity violations; class 54, a program limit
/// such as a key too long for its index) is the event's, and ``StateStoreRefusedValue`` dead-letters it at once
/// without counting toward the store-failure backstop. Everything that says the database is not as this build
/// expects or cannot serve is the store's trouble, and waiting (or an operator) may cure it, so it pauses the
/// worker:
/// - a lost or refused connection (class 08), a protocol or authentication exchange that went wrong, rejected
///   credentials (28) or a missing database (3D);
/// - a schema that changed under the worker: a table or column renamed or dropped (42P01, 42703), a function
///   missing during a rolling deploy (42883), a revoked grant (42501), a schema gone (3F000), a statement whose
///   plan no longer fits (0A000, "cached plan must not change result type");
/// - a server shutting down or out of resources (57, 53), a system error (58), an internal error (XX), a lock
///   held past `lock_timeout` (55P03), a read-only server (25006, a standby after a failover).
///
/// Serialization failures and deadlocks (40001, 40P01) are retryable by definition: the transaction was rolled
/// back whole. Any other error is the event's retryable failure, and the pipeline's backstop pauses the worker when
/// many different events in a row meet one. The reason names the SQLSTATE and the server's message, which never hold
/// the password.
enum PostgresFailure {
    case retry
    case unavailable(StateStoreUnavailable)
    /// The server refused a value of the event (classes 22, 23, 54).
    case refusedValue
    case other

    /// The SQLSTATE classes of a value the server refuses.
    static let refusedValueClasses: Set<Substring> = ["22", "23", "54"]

    /// The SQLSTATE classes (first two characters) that make the store unavailable.
    static let unavailableClasses: Set<Substring> = ["08", "28", "3D", "3F", "53", "57", "58", "XX"]
    /// The single SQLSTATEs that make the store unavailable.
    static let unavailableStates: Set<String> = ["0A000", "25006", "26000", "42501", "42703", "42883", "42P01", "55P03"]

    init(_ error: any Error) {
        if let error = error as? StateStoreUnavailable {
            self = .unavailable(error)
            return
        }
        if error is StateStoreRefusedValue {
            self = .refusedValue
            return
        }
        if error is IOError || error is NIOConnectionError || error is ChannelError || error is NIOSSLError {
            let cause = String(describing: error).prefix(200)
            self = .unavailable(StateStoreUnavailable(reason: "PostgreSQL: connection lost or refused: \(cause)"))
            return
        }
        if let error = error as? PostgresStatementError {
            self = error.state.map(Self.init(serverState:)) ?? .other
            if case .unavailable = self { self = .other }
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
        self = Self(serverState: state)
        if case .unavailable = self {
            self = .unavailable(StateStoreUnavailable(reason: "PostgreSQL: \(Self.serverText(error) ?? state)"))
        }
    }

    /// What the server's SQLSTATE `state` says (an unavailability without its reason, which the caller words).
    private init(serverState state: String) {
        if ["40001", "40P01"].contains(state) {
            self = .retry
        } else if Self.refusedValueClasses.contains(state.prefix(2)) {
            self = .refusedValue
        } else if Self.unavailableClasses.contains(state.prefix(2)) || Self.unavailableStates.contains(state) {
            self = .unavailable(StateStoreUnavailable(reason: "PostgreSQL: \(state)"))
        } else {
            self = .other
        }
    }

    /// The SQLSTATE and the server's message (bounded) of a server error, nil for any other error.
    static func serverText(_ error: PSQLError) -> String? {
        guard error.code == .server, let state = error.serverInfo?[.sqlState] else { return nil }
        return "\(state) \((error.serverInfo?[.message] ?? "").prefix(200))"
    }
}
