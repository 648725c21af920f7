import Responder
import ServiceLifecycle

/// A state store as ``StateLocation/open(inboxRetention:notificationRetention:maximumSQLiteSize:logger:)`` opens it, with what it
/// needs while it is used.
public struct OpenedState: Sendable {
    /// The store.
    public let store: any StateStore
    /// What must run for the store to work (PostgreSQL's connection pool), or nil. In a service group it goes
    /// before the services that use the store, so a graceful shutdown stops it after them.
    public let service: (any Service)?

    init(store: any StateStore, service: (any Service)? = nil) {
        self.store = store
        self.service = service
    }

    /// Releases what the store holds open (a SQLite file's connections); the store must not be used afterwards.
    public func close() throws {
        try (store as? SQLiteStateStore)?.close()
    }
}
