import Foundation
import Logging
import Responder
import Testing
import WorkerHarness

@testable import ResponderWorker

/// A dependency outage (``IntakePause``): one warning for the whole outage however often the probes find the
/// dependency still down, readiness 503 until an input is handled again, and a new outage warns again.
@Suite(.timeLimit(.minutes(1)))
struct DependencyOutageTests {
    @Test func oneWarningForTheOutageAndNotReadyUntilAnInputWorks() async throws {
        let (logger, records) = CapturingLogHandler.logger()
        let readiness = Readiness()
        let pause = IntakePause(
            store: InMemoryStateStore(), backoff: Backoff(initial: .milliseconds(1), maximum: .milliseconds(2)),
            readiness: readiness, metrics: WorkerMetrics(), logger: logger, inPlace: false)
        let outage = Unavailability.dependency(DependencyUnavailable("the test API"))
        let warnings = { records.entries.filter { $0.level >= .warning } }

        #expect(pause.unavailable(outage))
        #expect(!pause.unavailable(outage), "inputs in hand meet the same pause")
        #expect(readiness.currentObstacles.contains(.dependencyUnavailable))
        for _ in 1...3 {
            // The probe: after the backoff the pause ends, and the next input meets the dependency still down.
            try await pause.waitUntilAvailable()
            #expect(!pause.isPaused)
            #expect(readiness.currentObstacles.contains(.dependencyUnavailable), "the outage goes on")
            #expect(pause.unavailable(outage), "the next input pauses again")
        }
        #expect(warnings().map(\.message) == ["a dependency of the handlers is unavailable: pausing every input; inputs in hand go back to the queue, uncounted"])
        #expect(warnings().first?.metadata["reason"] == "dependency-unavailable: the test API")

        try await pause.waitUntilAvailable()
        pause.inputWorked()
        #expect(!readiness.currentObstacles.contains(.dependencyUnavailable))
        #expect(records.entries.filter { $0.level == .info }.map(\.message) == ["the handlers' dependency answers again"])

        #expect(pause.unavailable(outage))
        #expect(warnings().count == 2, "a new outage warns again")
    }
}
