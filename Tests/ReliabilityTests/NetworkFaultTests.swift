import AMQP
import BrokerHarness
import Foundation
import Synchronization
import Testing
import WorkerHarness

/// A bad network between the worker and the broker (``FaultyProxy``): every write cut into pieces of a few bytes,
/// some held back, every connection reset every few seconds, and once all of them stalled for longer than the
/// heartbeat timeout, while a stream of taps goes through `responder run`. The worker reconnects by itself each
/// time, and the run ends with every golden update delivered, every tap counted once, nothing left in the input
/// queues and nothing dead-lettered.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .serialized, .timeLimit(.minutes(10)))
struct NetworkFaultTests {
    @Test func streamThroughAFaultyNetwork() async throws {
        let node = try BrokerNode.shared()
        let topology = TestTopology("network-fault")
        let probe = try await QueueProbe.open(topology)
        let publisher = try await QueueProbe.open(topology)
        let state = try Paths.temporaryFolder().appendingPathComponent("state.sqlite").path
        let run = try await TapRun(topology, notifications: 12, tapsEach: 60)
        let broker = try AMQPConfiguration(url: TestBroker.url ?? "")
        let network = FaultyProxy.Faults(pieces: 1...7, delayOneIn: 200, delay: .milliseconds(3))
        let proxy = try FaultyProxy(toPort: broker.port, faults: network)
        defer { proxy.stop() }
        let url = try #require(TestBroker.url).replacingOccurrences(of: ":\(broker.port)/", with: ":\(proxy.port)/")
        let heartbeat = Duration.seconds(1)
        let worker = try WorkerProcess(
            topology: topology, statePath: state,
            environment: ["RESPONDER_AMQP_URL": url, "RESPONDER_HEARTBEAT": "\(heartbeat.components.seconds)"])
        defer { if worker.isRunning { worker.send(SIGKILL) } }
        try await worker.waitUntilReady()

        // The stream goes out in parts, one for each fault to strike in.
        let faults: [Fault] = [.reset, .reset, .stall, .reset, .reset]
        let partSize = run.lines.count / (faults.count + 1) + 1
        let parts = stride(from: 0, to: run.lines.count, by: partSize).map {
            Array(run.lines[$0..<min($0 + partSize, run.lines.count)])
        }
        for (part, fault) in zip(parts, faults + [nil]) {
            // A fault every few seconds, each striking while inputs are in the worker's hands.
            try await Task.sleep(for: .seconds(3))
            let sent = PartSent()
            let streaming = Task {
                try await publisher.publishStreaming(part)
                sent.mark()
            }
            guard let fault else {
                try await streaming.value
                break
            }
            // Inputs in the worker's hands, as a rule; but a fast worker may drain a whole part between two looks,
            // and the fault must strike then too rather than wait for inputs that will not come.
            try await waitFor("inputs in flight (or the part sent) before the \(fault)") {
                try await worker.metric("responder_in_flight_events") >= 5 || sent.isMarked
            }
            let reconnects = try await worker.metric("responder_reconnects_total")
            switch fault {
            case .reset: proxy.resetAll()
            // Both ends stop hearing each other's heartbeats, and both must give the connections up.
            case .stall: proxy.stall(for: heartbeat * 4)
            }
            try await waitFor("the worker to reconnect after the \(fault)") {
                try await worker.metric("responder_reconnects_total") > reconnects
            }
            try await streaming.value
        }

        let result = try await run.finish(on: node, topology: topology, probe: probe, workers: [worker], statePath: state)
        #expect(result.reconnects >= faults.count, "a reconnection after each fault")
        print(
            "reliability: \(run.lines.count) taps through a proxy cutting writes into \(network.pieces) bytes,",
            "\(faults.count - 1) resets and one stall of \(heartbeat * 4) (heartbeat \(heartbeat)): \(proxy.connectionsAccepted) connections,",
            "\(result.reconnects) reconnection attempts, \(result.redelivered) redelivered inputs found in the inbox,",
            "\(result.updates) updates (\(result.repeats) repeats of one update's same bytes), tap counts exact,",
            "nothing unacknowledged or dead-lettered")
        await publisher.cleanUp()
        await probe.cleanUp()
    }
}

/// Whether a part of the stream has been published in full.
private final class PartSent: Sendable {
    private let done = Mutex(false)
    func mark() { done.withLock { $0 = true } }
    var isMarked: Bool { done.withLock { $0 } }
}

private enum Fault {
    /// Every connection reset.
    case reset
    /// Every connection stalled for longer than the heartbeat timeout.
    case stall
}
