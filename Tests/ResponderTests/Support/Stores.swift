import Foundation
import Logging
import PipelineHarness
import Responder
import ResponderPostgres
import ResponderSQLite
import StoreHarness
import Testing

/// The store implementations every store-level behaviour is checked against: the conformance suite.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case memory, sqlite, postgres

    var testDescription: String { rawValue }

    /// A fresh store. The directory keeps an SQLite file alive, and a PostgreSQL store's pool running, for as long
    /// as the test holds it; each PostgreSQL store of a test has a schema of its own (``TestPostgres``).
    func make(in directory: TemporaryDirectory) async throws -> any StateStore {
        switch self {
        case .memory: InMemoryStateStore()
        case .sqlite: try SQLiteStateStore(path: directory.path("state.sqlite"))
        case .postgres: try await TestPostgres.store(in: directory)
        }
    }

    /// Another store on the same state as `store` (made by ``make(in:)``), as another worker process would open
    /// it; the in-memory store cannot be shared, so it is `store` itself.
    func another(of store: any StateStore, in directory: TemporaryDirectory) async throws -> any StateStore {
        switch self {
        case .memory: store
        case .sqlite: try SQLiteStateStore(path: directory.path("state.sqlite"))
        case .postgres: try await TestPostgres.store(sharingWith: directory)
        }
    }
}

extension Duration {
    var seconds: TimeInterval { Double(components.seconds) }
}

extension StateStore {
    /// Commits event `event` changing notification `request` (stored at `version`) at `date`: actions [like] and
    /// a `likes` state of one tap.
    func change(_ request: String, event: String, at date: Date, version: Int64 = 0) async throws -> CommitResult {
        let record = NotificationRecord(
            requestIdentifier: request, categoryIdentifier: "photo-category", actions: [Fixtures.like],
            handlerStates: ["likes": Array(#"{"taps":1}"#.utf8)], version: version)
        let entry = InboxEntry(source: "/tests", eventID: event, requestIdentifier: request, outputs: [], processedAt: date)
        return try await commit(StateCommit(inboxEntry: entry, notification: record))
    }
}
