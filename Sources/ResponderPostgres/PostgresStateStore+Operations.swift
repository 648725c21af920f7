import Foundation
import Logging
import NotificationEvents
import PostgresNIO
import Responder

extension PostgresStateStore {
    /// The most times a statement that failed on a serialization failure or a deadlock is run.
    static let attempts = 5

    /// The most commits one transaction takes, and the most loads one query reads: enough that a full prefetch is a
    /// few round trips, few enough that a transaction is short and holds few row locks.
    static let maximumBatch = 64

    /// The positions of `commits` in the waves they are written in: wave n holds the (n + 1)th commit of each
    /// notification, in the batch's order, so a wave's transaction holds at most one commit per notification and
    /// its order of locks (``write(_:on:within:logger:)``) need not keep a notification's commits in order.
    static func waves(of commits: [StateCommit]) -> [[Int]] {
        var counts: [String: Int] = [:]
        var waves: [[Int]] = []
        for (index, commit) in commits.enumerated() {
            let wave = counts[commit.inboxEntry.requestIdentifier, default: 0]
            counts[commit.inboxEntry.requestIdentifier] = wave + 1
            if wave == waves.count { waves.append([]) }
            waves[wave].append(index)
        }
        return waves
    }

    /// Runs `body` on the pool (``operation(on:within:_:)``) within the store's timeout unless `bounded` is false.
    func operation<Result: Sendable>(
        bounded: Bool = true, _ body: @escaping @Sendable (PostgresConnectionPool) async throws -> Result
    ) async throws -> Result {
        try await Self.operation(on: client, within: bounded ? timeout : nil, body)
    }

    /// Runs `body` on `client`, again after a serialization failure or a deadlock (after a short random pause,
    /// so the two sides do not meet again), and turns connection and server trouble into
    /// ``StateStoreUnavailable`` (and other errors of the server into ``PostgresStatementError``, which says what
    /// the server said). With a `deadline`, an operation that has no answer within it (it may be waiting
    /// for a connection the pool cannot open) is cancelled and reported unavailable.
    static func operation<Result: Sendable>(
        on client: PostgresConnectionPool, within deadline: Duration?,
        _ body: @escaping @Sendable (PostgresConnectionPool) async throws -> Result
    ) async throws -> Result {
        var attempt = 1
        while true {
            do {
                guard let deadline else { return try await body(client) }
                return try await Deadline.answer(within: deadline) { try await body(client) }
            } catch {
                switch PostgresFailure(error) {
                case .retry where attempt < attempts:
                    attempt += 1
                    try await Task.sleep(for: .milliseconds(Int.random(in: 1...(10 << attempt))))
                case .retry, .other: throw PostgresStatementError.readable(error)
                case .refusedValue:
                    throw StateStoreRefusedValue(reason: "\(PostgresStatementError.readable(error))")
                case .unavailable(let unavailable):
                    // A statement that failed to prepare fails on its connection for good, and a prepared plan
                    // whose tables changed may not fit them any more: prepare afresh once the store is back.
                    PreparedStatementGeneration.advance(after: (error as? PSQLError)?.serverInfo?[.sqlState])
                    throw unavailable
                }
            }
        }
    }

    /// The result of each commit of `batch`, written by one statement in one transaction (``CommitBatch``). A serialization failure or a deadlock runs the whole batch again; a
    /// lost connection or a server in trouble gives every commit of it ``StateStoreUnavailable``, and since the
    /// transaction may have committed before its answer was lost, the commits' retries find their events in the
    /// inbox. A statement that fails for another reason (a value of one commit the server refuses) rolls the
    /// batch back, and each commit is then written alone, so only the faulty one fails.
    static func write(
        _ batch: [StateCommit], on client: PostgresConnectionPool, within timeout: Duration, logger: Logger
    ) async -> [Result<CommitResult, any Error>] {
        // Every worker writes a batch in one order (by notification, then event), so two batches that share
        // notifications or events (a redelivered prefetch racing its original) take their locks in the same order
        // instead of deadlocking. Which of two commits of one notification from one version goes first decides
        // only which of them wins, as when they race on two workers.
        let order = batch.indices.sorted {
            let (one, other) = (batch[$0].inboxEntry, batch[$1].inboxEntry)
            return (one.requestIdentifier, one.eventID, one.source, $0)
                < (other.requestIdentifier, other.eventID, other.source, $1)
        }
        let statement = CommitBatch(commits: order.map { batch[$0] })
        do {
            let rows = try await operation(on: client, within: timeout) { client in
                let rows = try await client.execute(statement, logger: logger)
                guard rows.count == batch.count else {
                    throw StateStoreUnavailable(
                        reason: "PostgreSQL: commit_events answered \(rows.count) rows for \(batch.count) commits")
                }
                return rows
            }
            var results = [Result<CommitResult, any Error>](repeating: .success(.versionConflict), count: batch.count)
            for (row, index) in zip(rows, order) {
                results[index] = Result { try CommitBatch.result(row, of: batch[index]) }
            }
            return results
        } catch {
            // A value of one commit the server refused: the others are written alone, so only that one fails.
            let oneCommitsValue: Bool
            switch PostgresFailure(error) {
            case .other, .refusedValue: oneCommitsValue = true
            case .retry, .unavailable: oneCommitsValue = false
            }
            guard batch.count > 1, oneCommitsValue else { return batch.map { _ in .failure(error) } }
            var results: [Result<CommitResult, any Error>] = []
            for commit in batch {
                results += await write([commit], on: client, within: timeout, logger: logger)
            }
            return results
        }
    }

    /// The snapshot of each load of `keys`, read by one query (``LoadEvents``). A failure of
    /// the query (connection or server trouble becomes ``StateStoreUnavailable``) is every load's; stored bytes that
    /// do not decode fail only their own load.
    static func load(
        _ keys: [StateLoad], on client: PostgresConnectionPool, within timeout: Duration, logger: Logger
    ) async -> [Result<StateSnapshot, any Error>] {
        let statement = LoadEvents(keys: keys)
        do {
            let rows = try await operation(on: client, within: timeout) { client in
                try await client.execute(statement, logger: logger)
            }
            var results = [Result<StateSnapshot, any Error>](
                repeating: .failure(StateStoreUnavailable(reason: "PostgreSQL: no row for a load")), count: keys.count)
            for (position, storedRequest, outputs, category, actions, states, version, date, removed) in rows {
                guard let index = Int(exactly: position - 1), keys.indices.contains(index) else { continue }
                results[index] = Result {
                    if let storedRequest, let outputs {
                        return try InboxMatch.snapshot(
                            requestIdentifier: keys[index].requestIdentifier, storedRequestIdentifier: storedRequest
                        ) { try StoredBytes.outputs(outputs) }
                    }
                    return .unprocessed(
                        try record(
                            keys[index].requestIdentifier, category: category, actions: actions, states: states,
                            version: version, notificationDate: date, isRemoved: removed))
                }
            }
            return results
        } catch {
            return keys.map { _ in .failure(error) }
        }
    }

    /// A notification record from its columns; nil when the notification is not stored (null columns).
    static func record(
        _ requestIdentifier: String, category: String?, actions: ByteBuffer?, states: ByteBuffer?, version: Int64?,
        notificationDate: Date?, isRemoved: Bool?
    ) throws -> NotificationRecord? {
        guard let category, let actions, let states, let version else { return nil }
        return NotificationRecord(
            requestIdentifier: requestIdentifier, categoryIdentifier: category,
            actions: try EventCodec.decodeStored([NotificationAction].self, from: Array(actions.readableBytesView)),
            handlerStates: try StoredBytes.states(states), version: version, notificationDate: notificationDate,
            isRemoved: isRemoved ?? false)
    }
}
