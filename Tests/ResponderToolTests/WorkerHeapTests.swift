@testable import ResponderCommands
import Testing

/// glibc refuses a threshold out of its range (an mmap threshold over 32 MiB on 64-bit, for one): `responder run`
/// would then only log a warning and pay for the churn its thresholds are there to stop.
@Suite struct WorkerHeapTests {
    @Test func glibcTakesTheWorkersHeapThresholds() {
        #expect(WorkerHeap.keepFreedMemory())
    }
}
