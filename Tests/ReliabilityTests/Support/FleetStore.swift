import AMQP
import Foundation
import Testing
import WorkerHarness

/// The state store a fleet's workers share, as a parameter of the fleet test: what each worker's `--state` is, how
/// the test checks it at the end, and the outage the test inflicts on it while the stream runs (none for a file).
struct FleetStore: Sendable {
    /// What the report calls it.
    let description: String
    /// Each worker's `RESPONDER_STATE`.
    let state: String
    /// The database's outage, for a store on a server.
    let outage: DatabaseOutage?
    /// Checks what the run left in the store (``TapRun/checkStore(at:received:)``), given the updates received.
    let check: @Sendable (TapRun, [AMQPDelivery]) async throws -> Void

    /// One SQLite file in a folder every worker reaches: a fleet on one machine.
    static func sqlite(in folder: URL) -> FleetStore {
        let path = folder.appendingPathComponent("state.sqlite").path
        return FleetStore(
            description: "one SQLite file in a shared folder", state: path, outage: nil,
            check: { run, received in try await run.checkStore(at: path, received: received) })
    }
}

/// A PostgreSQL server of `scripts/postgres` on `port`, stopped and started again by the fleet test: the workers
/// pause and report not-ready while it is gone, and go on where they were once it is back.
struct DatabaseOutage: Sendable {
    let port: Int

    /// `scripts/postgres stop`: a fast shutdown; the data folder stays.
    func stop() async throws { try await script("stop") }

    /// `scripts/postgres start` on the same data folder.
    func start() async throws { try await script("start") }

    private func script(_ command: String) async throws {
        // Detached: the server that `start` leaves behind must not hold the test's pipe open.
        let result = try await BrokerNode.spawnDetached(
            Paths.root.appendingPathComponent("scripts/postgres").path, arguments: [command],
            environment: ["POSTGRES_PORT": "\(port)"])
        guard result.status == 0 else { throw HarnessError("scripts/postgres \(command) exited \(result.status): \(result.output)") }
    }
}
