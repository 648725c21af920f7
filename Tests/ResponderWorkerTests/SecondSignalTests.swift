import Foundation
import Synchronization
import Testing

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
        kill(getpid(), SIGUSR1)
        kill(getpid(), SIGUSR1)
        var ends = ended.makeAsyncIterator()
        await ends.next()
        await watching.value
        #expect(seconds.load(ordering: .relaxed) == 1, "once, at the second")
    }
}
