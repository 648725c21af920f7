import Foundation

/// A folder of its own for one test, removed when the test is done with it; it also stops what the test's stores
/// run (a PostgreSQL store's pool).
public final class TemporaryDirectory: @unchecked Sendable {
    public let url: URL
    private let lock = NSLock()
    private var running: [Task<Void, Never>] = []
    private var firstSchema: String?

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("responder-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Keeps `task` running until the directory goes, then cancels it.
    public func keep(_ task: Task<Void, Never>) {
        lock.withLock { running.append(task) }
    }

    /// The PostgreSQL schema of the test's first PostgreSQL store, which ``StoreKind/another(of:in:)`` shares.
    public var schema: String? {
        get { lock.withLock { firstSchema } }
        set { lock.withLock { firstSchema = firstSchema ?? newValue } }
    }

    deinit {
        for task in running { task.cancel() }
        try? FileManager.default.removeItem(at: url)
    }
}
