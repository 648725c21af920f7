import ServiceLifecycle
import UnixSignals

/// Calls `stop` on the first SIGINT or SIGTERM, for tools that run until the operator stops them; `stop` should
/// end their work gracefully (for example cancel a consumer, so its loop ends and what was read stays written).
/// Cancel the returned task once the work is over.
func onStopSignal(_ stop: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
    Task {
        for await _ in await UnixSignalsSequence(trapping: .sigint, .sigterm) {
            await stop()
            return
        }
    }
}
