import Foundation
import Logging
import Responder
import ResponderPostgres
import Testing

/// A folder of its own for one test, removed when the test is done with it; it also stops what the test's stores
/// run (a PostgreSQL store's pool).
final class TemporaryDirectory: @unchecked Sendable {
    let url: URL
    private let lock = NSLock()
    private var running: [Task<Void, Never>] = []
    private var firstSchema: String?

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("responder-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Keeps `task` running until the directory goes, then cancels it.
    func keep(_ task: Task<Void, Never>) {
        lock.withLock { running.append(task) }
    }

    /// The PostgreSQL schema of the test's first PostgreSQL store, which ``StoreKind/another(of:in:)`` shares.
    var schema: String? {
        get { lock.withLock { firstSchema } }
        set { lock.withLock { firstSchema = firstSchema ?? newValue } }
    }

    deinit {
        for task in running { task.cancel() }
        try? FileManager.default.removeItem(at: url)
    }
}

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

extension StateStore {
    /// The commits as one batch; a thrown error is every commit's.
    func commitTogether(_ commits: [StateCommit]) async -> [Result<CommitResult, any Error>] {
        do {
            return try await commit(commits)
        } catch {
            return commits.map { _ in .failure(error) }
        }
    }

    /// The loads as one batch; a thrown error is every load's.
    func loadTogether(_ loads: [StateLoad]) async -> [Result<StateSnapshot, any Error>] {
        do {
            return try await load(loads)
        } catch {
            return loads.map { _ in .failure(error) }
        }
    }
}
