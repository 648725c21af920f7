import Foundation
import Logging
import Responder
import Synchronization
import Testing
import WorkerHarness

@testable import ResponderWorker

/// A dependency outage (``IntakePause``): one warning for the whole outage however often the probes find the
/// dependency still down, readiness 503 until an input is handled while no handler's dependency is down, and a new
/// outage warns again.
@Suite(.timeLimit(.minutes(10)))
struct DependencyOutageTests {
    /// What the pipeline says of the handlers' dependencies (``ResponsePipeline/isDependencyUnavailable``).
    final class Dependency: Sendable {
        private let down = Atomic<Bool>(false)
        var isDown: Bool { down.load(ordering: .relaxed) }
        func set(down: Bool) { self.down.store(down, ordering: .relaxed) }
    }

    /// The pause's clock, still unless a test moves it, so how long the probes take never ends an outage.
    final class TestClock: Sendable {
        private let instant = Mutex(ContinuousClock.now)
        var now: ContinuousClock.Instant { instant.withLock { $0 } }
        func advance(by duration: Duration) { instant.withLock { $0 += duration } }
    }

    private static let outage = Unavailability.dependency(DependencyUnavailable("the test API"))
    private static let backoff = Backoff(initial: .milliseconds(1), maximum: .milliseconds(2))

    private static func pause(
        _ dependency: Dependency, clock: TestClock = TestClock()
    ) -> (IntakePause, Readiness, CapturingLogHandler.Records) {
        let (logger, records) = CapturingLogHandler.logger()
        let readiness = Readiness()
        let pause = IntakePause(
            store: InMemoryStateStore(), backoff: backoff, readiness: readiness, metrics: WorkerMetrics(),
            logger: logger, inPlace: false, dependencyDown: { dependency.isDown }, now: { clock.now })
        return (pause, readiness, records)
    }

    @Test func oneWarningForTheOutageAndNotReadyUntilAnInputWorks() async throws {
        let (pause, readiness, records) = Self.pause(Dependency())
        let outage = Self.outage
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

    /// Mixed traffic: between the probes, inputs of other handlers (or lifecycle events) are handled while the failing
    /// handler's dependency is still down. They neither end the outage nor restart the backoff; the failing handler's
    /// own call that works does.
    @Test func otherInputsHandledBetweenTheProbesLeaveTheOutageOn() async throws {
        let dependency = Dependency()
        let (pause, readiness, records) = Self.pause(dependency)
        dependency.set(down: true)
        #expect(pause.unavailable(Self.outage))
        for _ in 1...3 {
            try await pause.waitUntilAvailable()
            pause.inputWorked()
            #expect(readiness.currentObstacles.contains(.dependencyUnavailable), "another handler's input ends nothing")
            #expect(pause.unavailable(Self.outage), "the failing handler's next input pauses again")
        }
        #expect(records.entries.filter { $0.level >= .warning }.count == 1, "one outage, one warning")
        let probes = records.entries.filter { $0.message.hasPrefix("trying the handlers' dependency again") }
        #expect(probes.map { $0.metadata["probes"] } == ["1", "2", "3"], "the backoff goes on growing")

        try await pause.waitUntilAvailable()
        dependency.set(down: false)
        pause.inputWorked()
        #expect(!readiness.currentObstacles.contains(.dependencyUnavailable))
        #expect(records.entries.filter { $0.level == .info }.map(\.message) == ["the handlers' dependency answers again"])
    }

    /// When the failing handler's inputs stop coming (its category went quiet, or other workers take them), no call
    /// of it can end the outage: it ends once no input has met it for twice the longest delay between probes, or a
    /// minute when that is longer.
    @Test func anOutageNoInputMeetsForTwiceTheLongestProbeDelayEnds() async throws {
        let dependency = Dependency()
        let clock = TestClock()
        let (pause, readiness, records) = Self.pause(dependency, clock: clock)
        dependency.set(down: true)
        #expect(pause.unavailable(Self.outage))
        try await pause.waitUntilAvailable()
        #expect(pause.quietOutage == .seconds(60), "a minute: longer than twice the test's longest delay")
        clock.advance(by: pause.quietOutage - .nanoseconds(1))
        pause.inputWorked()
        #expect(readiness.currentObstacles.contains(.dependencyUnavailable), "not quiet for long enough yet")

        clock.advance(by: .nanoseconds(1))
        pause.inputWorked()
        #expect(!readiness.currentObstacles.contains(.dependencyUnavailable))
        #expect(records.entries.filter { $0.level == .info }.count == 1, "the end is logged once")
        #expect(pause.unavailable(Self.outage), "the failing handler's next input begins a new outage")
        #expect(records.entries.filter { $0.level >= .warning }.count == 2, "and warns again")
    }
}
