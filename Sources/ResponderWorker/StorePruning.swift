import Logging
import Responder
import ServiceLifecycle

/// Prunes the state store's inbox and stale notifications in the background for as long as the worker runs.
struct StorePruning: Service {
    let store: any StateStore
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown { await store.runPruning(logger: logger) }
    }
}
