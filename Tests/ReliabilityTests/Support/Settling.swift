import BrokerHarness
import Foundation
import Synchronization
import Testing
import WorkerHarness

extension WorkerProcess {
    /// The kernel's account of the child's memory, in KiB: resident now (VmRSS) and at its peak (VmHWM).
    func memory() throws -> (resident: Int, peak: Int) {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        func field(_ name: String) throws -> Int {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }),
                let kib = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap({ Int($0) })
            else { throw HarnessError("no \(name) in /proc/\(pid)/status") }
            return kib
        }
        return (try field("VmRSS"), try field("VmHWM"))
    }
}

/// The queues through which a test's inputs pass before they are settled: the input queue and the retry queues, or
/// in ordered mode the shard queues.
func inputQueues(_ topology: TestTopology) -> [String] {
    let names = topology.topology
    return names.consumedQueues + (names.isOrdered ? [] : names.retryDelays.indices.map { names.retryQueue(attempt: $0 + 1) })
}

/// Waits until every input of `topology` is settled: none ready or unacknowledged in the input or retry queues, and
/// none in flight in `workers`. The cheap checks (AMQP, /metrics) come first; rabbitmqctl only when they pass.
func waitUntilSettled(
    _ topology: TestTopology, on node: BrokerNode, probe: QueueProbe, workers: [WorkerProcess],
    timeout: Duration = hangGuard
) async throws {
    let lastSeen = Mutex("nothing yet")
    do {
        try await waitFor(timeout: timeout, "the inputs of \(topology.prefix) to be settled") {
            for queue in inputQueues(topology) {
                let ready = try await probe.count(queue)
                if ready > 0 { return lastSeen.withLock { $0 = "\(ready) ready in \(queue)"; return false } }
            }
            for worker in workers {
                let inFlight = try await worker.metric("responder_in_flight_events")
                if inFlight > 0 { return lastSeen.withLock { $0 = "\(inFlight) in flight in worker \(worker.pid)"; return false } }
            }
            let counts = try await node.queueCounts(prefix: topology.prefix)
            lastSeen.withLock { $0 = "rabbitmqctl: \(counts)" }
            return inputQueues(topology).allSatisfy { counts[$0] == QueueCounts(ready: 0, unacknowledged: 0) }
        }
    } catch {
        throw HarnessError("\(error); last seen: \(lastSeen.withLock { $0 })")
    }
}

/// Expects nothing left behind: the input and retry queues empty with nothing unacknowledged, the dead-letter
/// queue empty (`deadLetters` expected there otherwise).
func expectNothingLeft(
    _ topology: TestTopology, on node: BrokerNode, deadLetters: Int = 0, sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    let counts = try await node.queueCounts(prefix: topology.prefix)
    for queue in inputQueues(topology) {
        #expect(counts[queue] == QueueCounts(ready: 0, unacknowledged: 0), "\(queue): \(counts[queue].map(String.init(describing:)) ?? "missing")",
                sourceLocation: sourceLocation)
    }
    let deadLetterQueue = topology.topology.deadLetterQueue
    #expect(counts[deadLetterQueue] == QueueCounts(ready: deadLetters, unacknowledged: 0),
            "\(deadLetterQueue): \(counts[deadLetterQueue].map(String.init(describing:)) ?? "missing")",
            sourceLocation: sourceLocation)
}
