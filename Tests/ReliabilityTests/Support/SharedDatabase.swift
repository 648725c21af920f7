import BrokerHarness
import Foundation
import Logging
import ResponderPostgres
import WorkerHarness

/// A schema of its own on the tests' PostgreSQL server (`POSTGRES_URL` and `POSTGRES_PORT`, which scripts/test
/// exports), migrated: the workers of one test share it as their `--state`, the test reads what they left through
/// ``store``, and ``outage`` stops and starts the server under them.
struct SharedDatabase: Sendable {
    /// Whether scripts/test started a server for the tests.
    static var isAvailable: Bool { environment("POSTGRES_URL") != nil && environment("POSTGRES_PORT") != nil }

    /// Each worker's `RESPONDER_STATE`: the server's URL with the schema (the password travels in the environment).
    let state: String
    /// The schema of the store's tables.
    let schema: String
    /// The store on the same schema, as a worker opens it, for the test's checks.
    let store: PostgresStateStore
    let outage: DatabaseOutage
    private let pool: Task<Void, Never>

    /// A fresh schema named `fleet_` and a random suffix, migrated, with its store's pool running until ``close()``.
    static func fresh() async throws -> SharedDatabase {
        guard let server = environment("POSTGRES_URL"), let port = environment("POSTGRES_PORT").flatMap(Int.init) else {
            throw HarnessError("POSTGRES_URL and POSTGRES_PORT are not set: run scripts/test")
        }
        let schema = "fleet_\(UInt32.random(in: .min ... .max))"
        let state = "\(server)?sslmode=disable&schema=\(schema)"
        let url = try PostgresURL(state)
        try await PostgresStateStore.migrate(url, logger: .quiet)
        let store = PostgresStateStore(url: url, logger: .quiet)
        return SharedDatabase(state: state, schema: schema, store: store, outage: DatabaseOutage(port: port), pool: Task { await store.run() })
    }

    /// Stops the store's pool.
    func close() { pool.cancel() }

    private static func environment(_ name: String) -> String? { ProcessInfo.processInfo.environment[name] }
}
