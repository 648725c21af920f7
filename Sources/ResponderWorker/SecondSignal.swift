import Foundation
import UnixSignals

/// Exits at once on a second SIGTERM or SIGINT, for an operator who will not wait for a graceful shutdown.
///
/// The first signal is the service group's (graceful shutdown); this only counts, through the same UnixSignals
/// sequence the group traps them with. Inputs not yet acknowledged are redelivered by the broker, so exiting here
/// loses nothing.
enum SecondSignal {
    /// Counts `signals` from now on, together, and calls `second` on the second one (by default: says so on standard
    /// error and exits with 130). Cancel the task to stop counting.
    static func watch(
        _ signals: [UnixSignal] = [.sigterm, .sigint], then second: @escaping @Sendable () -> Void = exitNow
    ) async -> Task<Void, Never> {
        // Trapped before the task starts, so a signal that comes at once is counted.
        let received = await UnixSignalsSequence(trapping: signals)
        return Task {
            var count = 0
            for await _ in received {
                count += 1
                if count == 2 {
                    second()
                    return
                }
            }
        }
    }

    @Sendable private static func exitNow() {
        FileHandle.standardError.write(Data("responder: second signal, exiting now\n".utf8))
        exit(130)
    }
}
