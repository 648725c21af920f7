import BrokerHarness
import Foundation
import WorkerHarness

/// A RedGreen stream (10 notifications, 40 rotate taps each) published at once to a worker slowed to one
/// notification at a time, which RESPONDER_FAULT interrupts at its 20th commit: the middle of a stream, where the
/// crash and shutdown tests interrupt the worker, at the same point however fast the machine is.
struct StreamInProgress {
    let topology: TestTopology
    let probe: QueueProbe
    let folder: URL
    /// The state file a second worker shares with the first.
    let statePath: String
    let check: StreamCheck
    let worker: WorkerProcess

    /// Starts the worker, to be sent `signal` (KILL or TERM) at its 20th commit, and publishes the stream to it.
    static func start(_ label: String, signal: String) async throws -> StreamInProgress {
        let topology = TestTopology(label)
        let probe = try await QueueProbe.open(topology)
        let folder = try Paths.temporaryFolder()
        let statePath = folder.appendingPathComponent("state.sqlite").path
        let check = StreamCheck(prefix: topology.prefix, notifications: 10, tapsEach: 40)
        // One notification at a time and a small prefetch: at the 20th commit the worker holds a few inputs and
        // hundreds wait in the queue.
        let worker = try WorkerProcess(
            topology: topology, statePath: statePath, environment: ["RESPONDER_FAULT": "after-commit:20:\(signal)"],
            arguments: ["--concurrency", "1", "--prefetch", "10"])
        try await worker.waitUntilReady()
        try await probe.publish(
            RedGreenTaps.stream(
                prefix: check.prefix, notifications: check.notifications, tapsEach: check.tapsEach,
                exchange: topology.topology.inputExchange))
        return StreamInProgress(
            topology: topology, probe: probe, folder: folder, statePath: statePath, check: check, worker: worker)
    }

    /// Inputs ready in the input queue.
    func inputsLeft() async throws -> Int { try await probe.count(topology.topology.inputQueue) }

    /// A second worker on the same state, ready.
    func secondWorker() async throws -> WorkerProcess {
        let second = try WorkerProcess(topology: topology, statePath: statePath)
        try await second.waitUntilReady()
        return second
    }

    /// What is left in the input and the dead-letter queue; deletes the test's topology and files.
    func finish() async throws -> (inputsLeft: Int, deadLetters: Int) {
        let left = (try await inputsLeft(), try await probe.count(topology.topology.deadLetterQueue))
        await probe.cleanUp()
        try? FileManager.default.removeItem(at: folder)
        return left
    }
}
