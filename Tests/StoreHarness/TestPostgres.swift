import Foundation
import Logging
import PostgresNIO
import Responder
import PipelineHarness
import ResponderPostgres

/// The PostgreSQL server `scripts/postgres start` runs for the tests, found through `POSTGRES_URL` (scripts/test
/// sets it). Without it the PostgreSQL cases fail, naming scripts/test: they never pass unrun.
public enum TestPostgres {
    /// The server's URL, nil when the tests run without one.
    public static let url = ProcessInfo.processInfo.environment["POSTGRES_URL"]

    /// Whether a server is there, for the suites that only test PostgreSQL.
    public static var isAvailable: Bool { url != nil }

    public struct Missing: Error, CustomStringConvertible {
        public init() {}

        public var description: String { "POSTGRES_URL is not set: run scripts/test (or export POSTGRES_URL=$(scripts/postgres start))" }
    }

    /// The test server's URL with a fresh schema of its own, so tests run in parallel without seeing each other.
    public static func freshURL(poolSize: Int = 4) throws -> PostgresURL {
        try schemaURL("t_\(UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: ""))", poolSize: poolSize)
    }

    /// The test server's URL for `schema`.
    public static func schemaURL(_ schema: String, poolSize: Int = 4) throws -> PostgresURL {
        guard let url else { throw Missing() }
        return try PostgresURL("\(url)?sslmode=disable&pool_size=\(poolSize)&schema=\(schema)")
    }

    /// A migrated store on a fresh schema (or `schema`), its pool running until `directory` goes.
    public static func store(
        in directory: TemporaryDirectory, schema: String? = nil, timeout: Duration = .seconds(10),
        pruningBatch: Int = 1000
    ) async throws -> PostgresStateStore {
        let url = try schema.map { try schemaURL($0) } ?? freshURL()
        try await PostgresStateStore.migrate(url, logger: .quiet)
        let store = PostgresStateStore(url: url, timeout: timeout, pruningBatch: pruningBatch, logger: .quiet)
        directory.keep(Task { await store.run() })
        directory.schema = url.schema
        return store
    }

    /// Another store on the schema of the first store `directory` holds, as another worker would open it.
    public static func store(sharingWith directory: TemporaryDirectory) async throws -> PostgresStateStore {
        guard let schema = directory.schema else { throw NoStoreYet() }
        return try await store(in: directory, schema: schema)
    }

    /// Runs `statements` as the tests' role (the server's owner) in `url`'s schema.
    public static func run(_ statements: [String], in url: PostgresURL) async throws {
        let connection = try await PostgresConnection.connect(
            configuration: try url.connectionConfiguration(), id: 9, logger: .quiet)
        do {
            try await connection.query(PostgresQuery(unsafeSQL: "SET search_path TO \(url.schema)"), logger: .quiet)
            for statement in statements { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: .quiet) }
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
    }

    public struct NoStoreYet: Error, CustomStringConvertible {
        public var description: String { "no PostgreSQL store was made in this test's directory yet" }
    }
}
