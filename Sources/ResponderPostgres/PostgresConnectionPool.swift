import Logging
import PostgresNIO
import Responder
import ServiceLifecycle
import Synchronization

/// The store's connections to the server: at most `size` open at once, each leased to one operation at a time.
///
/// Hand-written because postgres-nio's pool (`PostgresClient`) opens its connections itself and takes no handler of
/// ours, and postgres-nio answers a server's request for the password in cleartext on any connection: against a
/// server, or a man in the middle, that refuses TLS, every connection the library's pool opened after the first
/// would send the password. Each connection here is opened by ``PostgresURL/connect(id:startupParameters:logger:)``,
/// with a ``CleartextPasswordGuard`` in its pipeline.
///
/// A connection that closed (the server went away, or the operation's deadline left it) gives its place to a new
/// one at once, even while an operation still holds it, as postgres-nio's pool did: an operation stuck on a dead
/// connection does not keep the others waiting. An idle connection older than ``idleTimeout`` is closed rather than
/// reused, so a connection a firewall dropped in silence is not the next one used. Opening a connection fails the
/// operation that needed it with the reason (the store's deadline bounds the wait), where postgres-nio's pool kept
/// retrying. Prepared statements are prepared once per connection by postgres-nio, as before.
final class PostgresConnectionPool: Sendable {
    /// How long a connection may stay idle and still be reused: postgres-nio's pool's default.
    static let idleTimeout: Duration = .seconds(60)

    /// What a waiting lease is given: a connection another operation returned, or a place to open one.
    private enum Turn {
        case connection(PostgresConnection)
        case open(id: Int)
    }

    private struct State {
        /// Every open (or opening) connection, by id; its count is bounded by `size`.
        var places = Set<Int>()
        var connections: [Int: PostgresConnection] = [:]
        var idle: [(connection: PostgresConnection, since: ContinuousClock.Instant)] = []
        var waiting: [(id: Int, continuation: CheckedContinuation<Turn, any Error>)] = []
        var nextID = 1
        var isShutDown = false

        mutating func newID() -> Int {
            defer { nextID += 1 }
            return nextID
        }
    }

    private let url: PostgresURL
    private let size: Int
    private let startupParameters: [(String, String)]
    private let logger: Logger
    private let state = Mutex(State())

    /// A pool of at most `url`'s ``PostgresURL/poolSize`` connections, whose sessions start with
    /// `startupParameters`. Nothing connects before the first lease.
    init(url: PostgresURL, startupParameters: [(String, String)], logger: Logger) {
        self.url = url
        size = max(1, url.poolSize)
        self.startupParameters = startupParameters
        self.logger = logger
    }

    /// `body`'s result on a connection leased for its duration.
    func withConnection<Result: Sendable>(
        _ body: (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let connection = try await lease()
        defer { release(connection) }
        return try await body(connection)
    }

    /// Every row of the prepared statement, read on a leased connection (which prepares it once).
    func execute<Statement: PostgresPreparedStatement>(
        _ statement: Statement, logger: Logger
    ) async throws -> [Statement.Row] where Statement.Row: Sendable {
        try await withConnection { connection in
            var rows: [Statement.Row] = []
            for try await row in try await connection.execute(statement, logger: logger) { rows.append(row) }
            return rows
        }
    }

    /// Runs until the task is cancelled or a graceful shutdown reaches it, then closes every connection and fails
    /// every lease, waiting or to come.
    func run() async {
        try? await gracefulShutdown()
        let (connections, waiting) = state.withLock { state in
            state.isShutDown = true
            defer { state.waiting = [] }
            return (Array(state.connections.values), state.waiting)
        }
        for waiter in waiting { waiter.continuation.resume(throwing: Self.shutDown) }
        for connection in connections { try? await connection.close() }
    }

    private static let shutDown = StateStoreUnavailable(reason: "PostgreSQL: the store is shut down")

    private func lease() async throws -> PostgresConnection {
        var stale: [PostgresConnection] = []
        let turn: Turn? = try state.withLock { state in
            guard !state.isShutDown else { throw Self.shutDown }
            while let (connection, since) = state.idle.popLast() {
                guard !connection.isClosed else { continue }
                guard ContinuousClock.now - since < Self.idleTimeout else {
                    stale.append(connection)
                    continue
                }
                return .connection(connection)
            }
            guard state.places.count < size else { return nil }
            let id = state.newID()
            state.places.insert(id)
            return .open(id: id)
        }
        // Each gives its place back once it has closed.
        for connection in stale { try? await connection.close() }
        let given: Turn
        if let turn { given = turn } else { given = try await waitForTurn() }
        switch given {
        case .connection(let connection): return connection
        case .open(let id): return try await open(id: id)
        }
    }

    /// Waits for a connection or a place; a cancelled wait (the operation's deadline passed) leaves the line.
    private func waitForTurn() async throws -> Turn {
        let id = state.withLock { $0.newID() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let refusal: (any Error)? = state.withLock { state in
                    if state.isShutDown { return Self.shutDown }
                    if Task.isCancelled { return CancellationError() }
                    state.waiting.append((id, continuation))
                    return nil
                }
                if let refusal { continuation.resume(throwing: refusal) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.waiting.firstIndex { $0.id == id }.map { state.waiting.remove(at: $0) }
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Opens the connection of place `id`; on failure the place goes to the next waiting lease.
    private func open(id: Int) async throws -> PostgresConnection {
        let connection: PostgresConnection
        do {
            connection = try await url.connect(id: id, startupParameters: startupParameters, logger: logger).connection
        } catch {
            giveUp(place: id)
            throw error
        }
        let isShutDown = state.withLock { state in
            if !state.isShutDown { state.connections[id] = connection }
            return state.isShutDown
        }
        guard !isShutDown else {
            try? await connection.close()
            throw Self.shutDown
        }
        connection.closeFuture.whenComplete { _ in self.giveUp(place: id) }
        return connection
    }

    /// Frees the place of a connection that closed or failed to open, once, for the next waiting lease to open.
    private func giveUp(place id: Int) {
        let waiter: (id: Int, continuation: CheckedContinuation<Turn, any Error>)? = state.withLock { state in
            guard state.places.remove(id) != nil else { return nil }
            state.connections[id] = nil
            state.idle.removeAll { $0.connection.id == id }
            guard !state.isShutDown, !state.waiting.isEmpty else { return nil }
            let waiter = state.waiting.removeFirst()
            let place = state.newID()
            state.places.insert(place)
            return (place, waiter.continuation)
        }
        if let (place, continuation) = waiter { continuation.resume(returning: .open(id: place)) }
    }

    /// Gives a leased connection to the next waiting lease, or back to the idle ones; a closed one has given up its
    /// place already (or will when its close completes).
    private func release(_ connection: PostgresConnection) {
        guard !connection.isClosed else { return }
        let waiter = state.withLock { state in
            guard !state.isShutDown else { return nil as CheckedContinuation<Turn, any Error>? }
            guard !state.waiting.isEmpty else {
                state.idle.append((connection, .now))
                return nil
            }
            return state.waiting.removeFirst().continuation
        }
        waiter?.resume(returning: .connection(connection))
    }
}
