import BrokerHarness
import Foundation
import Logging
import PipelineHarness
import PostgresNIO
import Responder
import StoreHarness
import Testing

@testable import ResponderPostgres

/// The store's own pool against the real server: bounded by `pool_size`, and a connection the server ended is
/// replaced.
@Suite(.enabled(if: TestPostgres.isAvailable, "needs PostgreSQL: run scripts/test"), .timeLimit(.minutes(10)))
struct PostgresConnectionPoolTests {
    /// A pool whose sessions carry an application name of their own, so the server can count them.
    private func pool(size: Int) throws -> (PostgresConnectionPool, name: String) {
        let name = "pool_test_\(UInt32.random(in: .min ... .max))"
        let url = try TestPostgres.freshURL(poolSize: size)
        return (PostgresConnectionPool(url: url, startupParameters: [("application_name", name)], logger: .quiet), name)
    }

    /// How many sessions named `name` the server has.
    private func sessions(named name: String, on connection: PostgresConnection) async throws -> Int {
        var count = 0
        for try await sessions in try await connection.query(
            "SELECT count(*)::int FROM pg_stat_activity WHERE application_name = \(name)", logger: .quiet
        ).decode(Int.self) {
            count = sessions
        }
        return count
    }

    @Test func moreOperationsThanConnectionsWaitTheirTurnOnAtMostPoolSizeConnections() async throws {
        let (pool, name) = try pool(size: 2)
        let running = Task { await pool.run() }
        defer { running.cancel() }
        let most = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try await pool.withConnection { connection in
                        // Held long enough that the others queue behind it.
                        try await connection.query("SELECT pg_sleep(0.1)", logger: .quiet)
                        return try await sessions(named: name, on: connection)
                    }
                }
            }
            return try await group.reduce(0, max)
        }
        #expect(most == 2)
    }

    @Test func aConnectionTheServerEndedIsReplaced() async throws {
        let (pool, name) = try pool(size: 1)
        let running = Task { await pool.run() }
        defer { running.cancel() }
        let first = try await pool.withConnection { connection in
            try await connection.query("SELECT 1", logger: .quiet)
            return connection.id
        }
        // Ended by another session, as an administrator or a failover does.
        let url = try TestPostgres.freshURL()
        try await TestPostgres.run(
            ["SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '\(name)'"], in: url)
        // The next lease may meet the ended connection before its close is noticed; one after it gets a new one.
        let deadline = ContinuousClock.now + hangGuard
        var replacement: Int?
        while replacement == nil, ContinuousClock.now < deadline {
            replacement = try? await pool.withConnection { connection in
                try await connection.query("SELECT 1", logger: .quiet)
                return connection.id
            }
        }
        #expect(replacement != nil && replacement != first)
    }
}
