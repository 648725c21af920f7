import BrokerHarness
import Foundation
import NotificationEvents
import Responder
import Testing
import WorkerHarness

/// The broker failing under load: the worker's connections force-closed, and the broker application restarted.
/// The worker reports not-ready while it is disconnected, reconnects, and finishes the stream with every tap
/// counted once and every golden update delivered. Serialized, and the restart runs on a broker node of its own,
/// since stopping the shared one would break every suite running beside this one.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .serialized, .timeLimit(.minutes(10)))
struct BrokerFaultTests {
    @Test func forceClosedConnectionsUnderLoad() async throws {
        let node = try BrokerNode.shared()
        let topology = TestTopology("force-close")
        let probe = try await QueueProbe.open(topology)
        let publisher = try await QueueProbe.open(topology)
        let state = try Paths.temporaryFolder().appendingPathComponent("state.sqlite").path
        let run = try await TapRun(topology, notifications: 12, tapsEach: 150)
        // The worker logs in as a user of its own, so the test can hold it off the broker for a while (long enough
        // to see readiness fail) without touching the connections of other suites.
        let user = "reliability-\(topology.prefix)"
        let password = UUID().uuidString
        try await node.ctl("add_user", user, password)
        try await node.ctl("set_permissions", "-p", "/", user, ".*", ".*", ".*")
        let url = "amqp://\(user):\(password)@127.0.0.1:\(node.port)/%2F"

        let worker = try WorkerProcess(topology: topology, statePath: state, environment: ["RESPONDER_AMQP_URL": url])
        do {
            try await worker.waitUntilReady()
            // rabbitmqctl is slow next to the worker, so everything but the close itself is done before the stream:
            // the connections are looked up, and the limit (which only refuses new connections) is set.
            let connections = try await node.connections(named: "responder \(topology.prefix)")
            #expect(connections.count == 2, "the worker's consuming and publishing connections")
            try await node.ctl("set_user_limits", user, #"{"max-connections": 0}"#)
            let streaming = Task { try await publisher.publishStreaming(run.lines) }
            try await waitFor("the worker to be busy") { try await worker.metric("responder_in_flight_events") >= 20 }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for connection in connections { group.addTask { try await node.close(connection: connection) } }
                try await group.waitForAll()
            }
            try await waitFor("readiness to fail") { await worker.status(of: "/health/ready") == 503 }
            #expect(await worker.status(of: "/health/live") == 200, "alive while disconnected")
            let waitingWhileDisconnected = try await probe.count(topology.topology.inputQueue)
            let updatesWhileDisconnected = try await probe.count(topology.topology.outputQueue)
            // The fault struck mid-stream: at least 20 inputs were in flight just before the close. How many are
            // still waiting by now depends on timing, so it is reported, not asserted.
            try await node.ctl("clear_user_limits", user, "max-connections")
            try await worker.waitUntilReady()
            try await streaming.value

            let result = try await run.finish(
                on: node, topology: topology, probe: probe, workers: [worker], statePath: state)
            #expect(result.reconnects >= 1)
            #expect(!worker.logText.contains(password), "the password never shows in the log")
            let order = try run.orderReport(result.received)
            print(
                "reliability: force-closed \(connections.count) connections while streaming \(run.lines.count) taps:",
                "readiness 503 with \(updatesWhileDisconnected) of \(run.goldenUpdateCount) updates out and",
                "\(waitingWhileDisconnected) inputs waiting, then 200; \(result.reconnects) reconnection attempts,",
                "\(result.redelivered) redelivered inputs found in the inbox, \(result.updates) updates",
                "(\(result.repeats) repeats; \(order.outOfVersionOrder) notifications' updates out of version order),",
                "tap counts exact, nothing unacknowledged")
        } catch {
            worker.send(SIGKILL)
            _ = try? await node.ctl("delete_user", user)
            throw error
        }
        _ = try? await node.ctl("delete_user", user)
        await publisher.cleanUp()
        await probe.cleanUp()
    }

    @Test func brokerRestartUnderLoad() async throws {
        try await BrokerNode.withThrowaway { try await restart($0) }
    }

    private func restart(_ node: BrokerNode) async throws {
        let topology = TestTopology("broker-restart")
        let probe = try await QueueProbe.open(topology, url: node.url)
        let state = try Paths.temporaryFolder().appendingPathComponent("state.sqlite").path
        let run = try await TapRun(topology, notifications: 12, tapsEach: 150)
        let backlog = run.lines.count * 2 / 3
        let worker = try WorkerProcess(topology: topology, statePath: state, environment: ["RESPONDER_AMQP_URL": node.url])
        defer { if worker.isRunning { worker.send(SIGKILL) } }
        try await worker.waitUntilReady()

        try await probe.publish(Array(run.lines[..<backlog]))
        try await waitFor("the first updates") { try await probe.count(topology.topology.outputQueue) >= 5 }
        let waitingAtTheStop = try await probe.count(topology.topology.inputQueue)
        let inFlightAtTheStop = try await worker.metric("responder_in_flight_events")
        #expect(waitingAtTheStop > 0, "the restart must strike while inputs are waiting")
        try await node.ctl("stop_app")
        try await waitFor("readiness to fail") { await worker.status(of: "/health/ready") == 503 }
        try await node.ctl("start_app")
        try await node.ctl("await_startup")
        try await worker.waitUntilReady()
        // Read until it shows: a busy broker's listing leaves out the queues that do not answer in time.
        try await waitFor("the quorum input queue running after the restart") {
            try await node.ctl("list_queues", "--no-table-headers", "name", "type", "state").split(separator: "\n")
                .contains { $0 == "\(topology.topology.inputQueue)\tquorum\trunning" }
        }

        let afterRestart = try await QueueProbe.open(topology, url: node.url)
        try await afterRestart.publish(Array(run.lines[backlog...]))
        let result = try await run.finish(
            on: node, topology: topology, probe: afterRestart, workers: [worker], statePath: state)
        #expect(result.reconnects >= 1)
        print(
            "reliability: broker stop_app/start_app with \(Int(inFlightAtTheStop)) taps in flight and \(waitingAtTheStop)",
            "of \(backlog) still waiting, \(run.lines.count - backlog) more after: readiness 503 then 200, quorum input",
            "queue running again, \(result.reconnects) reconnection attempts, \(result.redelivered) redelivered inputs",
            "found in the inbox, \(result.updates) updates (\(result.repeats) repeats), tap counts exact, nothing",
            "unacknowledged")
    }
}

extension QueueProbe {
    /// Publishes `lines` in small confirmed batches with a pause after each, so the worker sees a stream, not a
    /// backlog, while a fault strikes.
    func publishStreaming(_ lines: [FixtureLine], batch: Int = 25, pause: Duration = .milliseconds(20)) async throws {
        for start in stride(from: 0, to: lines.count, by: batch) {
            try await publish(Array(lines[start..<min(start + batch, lines.count)]))
            try await Task.sleep(for: pause)
        }
    }
}
