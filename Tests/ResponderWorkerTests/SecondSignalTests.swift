import Foundation
import Synchronization
import Testing
import UnixSignals

@testable import ResponderWorker

/// The second stop signal ends the process at once; the first is left to the graceful shutdown. SIGUSR1 stands in
/// for SIGTERM and SIGINT, which would stop the test runner.
@Suite struct SecondSignalTests {
    @Test(.timeLimit(.minutes(10)))
    func theSecondSignalEndsAndTheFirstDoesNot() async throws {
        let seconds = Atomic<Int>(0)
        let (ended, ending) = AsyncStream<Void>.makeStream()
        let watching = await SecondSignal.watch([.sigusr1]) {
            seconds.add(1, ordering: .relaxed)
            ending.yield()
        }
        // Signals of one number that come before the first is handled merge into one: the second is sent once a
        // sequence of the test's own has seen the first (Dispatch hands each delivery to every source of it at once).
        var witness = await UnixSignalsSequence(trapping: .sigusr1).makeAsyncIterator()
        kill(getpid(), SIGUSR1)
        _ = await witness.next()
        #expect(seconds.load(ordering: .relaxed) == 0, "not at the first")
        kill(getpid(), SIGUSR1)
        var ends = ended.makeAsyncIterator()
        await ends.next()
        await watching.value
        #expect(seconds.load(ordering: .relaxed) == 1, "once, at the second")
    }
}
