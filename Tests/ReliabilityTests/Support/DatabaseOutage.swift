import BrokerHarness
import Foundation
import WorkerHarness

/// The PostgreSQL server of `scripts/postgres` on `port`, stopped and started again by a test: the workers pause
/// and report not-ready while it is gone, and go on where they were once it is back.
struct DatabaseOutage: Sendable {
    let port: Int

    /// `scripts/postgres stop`: a fast shutdown (open sessions end with 57P01); the data folder stays.
    func stop() async throws { try await script("stop") }

    /// `scripts/postgres start` on the same data folder.
    func start() async throws { try await script("start") }

    /// Runs `sql` as the server's superuser (`scripts/postgres psql`, no password), stopping at the first error:
    /// how a test changes the database under a worker, as a migration or an operator's slip would.
    func psql(_ sql: String) async throws { try await script("psql", "-v", "ON_ERROR_STOP=1", "-c", sql) }

    private func script(_ command: String, _ arguments: String...) async throws {
        // Detached: the server that `start` leaves behind must not hold the test's pipe open.
        let result = try await BrokerNode.spawnDetached(
            Paths.root.appendingPathComponent("scripts/postgres").path, arguments: [command] + arguments,
            environment: ["POSTGRES_PORT": "\(port)"])
        guard result.status == 0 else { throw HarnessError("scripts/postgres \(command) exited \(result.status): \(result.output)") }
    }
}
