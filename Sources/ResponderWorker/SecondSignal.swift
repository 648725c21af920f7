import Dispatch
import Foundation
import Synchronization

/// Exits at once on a second SIGTERM or SIGINT, for an operator who will not wait for a graceful shutdown.
///
/// The first signal is the service group's (graceful shutdown); these sources only count. Inputs not yet
/// acknowledged are redelivered by the broker, so exiting here loses nothing.
enum SecondSignal {
    private static let received = Atomic<Int>(0)
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    static func exitAtOnce() {
        sources = [SIGTERM, SIGINT].map { signalNumber in
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                if received.add(1, ordering: .relaxed).newValue >= 2 {
                    FileHandle.standardError.write(Data("responder: second signal, exiting now\n".utf8))
                    exit(130)
                }
            }
            source.resume()
            return source
        }
    }
}
