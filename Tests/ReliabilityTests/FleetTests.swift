import AMQP
import BrokerHarness
import Foundation
import NotificationEvents
import Testing
import WorkerHarness

/// A fleet: three `responder run` processes, each in a working directory of its own as if on a machine of its own,
/// each connected to a different node of a three-node RabbitMQ cluster whose quorum input queue has a member on
/// every node, whose output, dead-letter and retry queues are quorum queues too (`--output-queue-type quorum`),
/// all sharing one PostgreSQL database (a schema of their own on the tests' server). A stream of 3,200
/// taps on 40 notifications goes out in four parts; while the first three are handled, a fault strikes at a known
/// point: a worker is SIGKILLed at its 20th input with outputs published and nothing confirmed or acknowledged, and a
/// new one takes its place; the node holding the input queue's leader stops once its worker has handled 20 inputs of
/// the second part (it leads the output queue too), and starts again; the database stops for ten seconds once the fleet has handled 20 inputs of the
/// third part, and starts again. At the end every tap is counted exactly once, every notification's updates
/// are the golden ones in version order, nothing is dead-lettered or left unacknowledged, and readiness went
/// not-ready and back on the workers each fault struck.
@Suite(
    .enabled(
        if: BrokerCluster.isAvailable && SharedDatabase.isAvailable,
        "needs a three-node RabbitMQ cluster and PostgreSQL: run scripts/test"),
    .timeLimit(.minutes(10)))
struct FleetTests {
    @Test func aFleetOnAClusterAndPostgreSQLSurvivesWorkerNodeAndDatabaseLoss() async throws {
        let cluster = try BrokerCluster.fromEnvironment()
        let database = try await SharedDatabase.fresh()
        defer { database.close() }
        let began = ContinuousClock.now
        let topology = TestTopology("fleet", outputQueueType: .quorum)
        let input = topology.topology.inputQueue
        // The topology is declared through node 2, so every queue's first leader is there (3.10 places a new quorum
        // queue's leader on the declaring node): the node stopped below leads the input queue and the output queue,
        // so the updates confirmed there must outlive it.
        try await declareTopology(topology, through: cluster.nodes[1])
        let probe = try await QueueProbe.open(topology, url: cluster.nodes[0].url)
        for queue in [input, topology.topology.outputQueue] {
            let members = try await cluster.members(of: queue, askingNode: 1)
            #expect(members.count == 3, "\(queue) has a member on each node: \(members)")
        }
        let firstLeader = try await cluster.leader(of: input)
        #expect(try await cluster.leader(of: topology.topology.outputQueue) == firstLeader)

        let run = try await TapRun(topology, notifications: 40, tapsEach: 80)
        let parts = stride(from: 0, to: run.lines.count, by: run.lines.count / 4).map {
            Array(run.lines[$0..<min($0 + run.lines.count / 4, run.lines.count)])
        }
        // 1. A worker lost: one on node 3 crashes at its 20th input, published and not yet confirmed. It runs alone
        // until then: beside the others it could be left fewer than 20 inputs of the part (a fast fleet drains it),
        // and the crash would never come. Then worker i runs on node i, a new one on node 3 in a fresh folder.
        let doomed = try startWorker(
            topology, database: database, node: cluster.nodes[2], environment: ["RESPONDER_FAULT": "after-publish:20"])
        defer { if doomed.isRunning { doomed.send(SIGKILL) } }
        try await doomed.waitUntilReady()
        let firstPart = Task { try await probe.publish(parts[0]) }
        let killStatus = try await doomed.waitForExit()
        #expect(killStatus == SIGKILL, "the third worker killed itself at its 20th input")
        let workers = try (1...3).map { number in
            try startWorker(topology, database: database, node: cluster.nodes[number - 1])
        }
        defer { for worker in workers where worker.isRunning { worker.send(SIGKILL) } }
        for worker in workers { try await worker.waitUntilReady() }
        try await firstPart.value

        // 2. The input queue's leader lost: its node stops once the worker there has handled 20 inputs of part 2.
        let leaderWorker = workers[firstLeader - 1]
        let handledBefore = try await leaderWorker.metric("responder_events_total")
        let secondPart = Task { try await probe.publish(parts[1]) }
        try await waitFor("the leader's worker to handle 20 inputs of part 2") {
            try await leaderWorker.metric("responder_events_total") >= handledBefore + 20
        }
        try await cluster.stopNode(firstLeader)
        try await waitFor("readiness to fail on node \(firstLeader)'s worker") {
            await leaderWorker.status(of: "/health/ready") == 503
        }
        let survivor = firstLeader == 2 ? 3 : 2
        try await waitFor("a new leader") {
            (try? await cluster.leader(of: input)).map { $0 != firstLeader } ?? false
        }
        let electedLeader = try await cluster.leader(of: input)
        try await cluster.startNode(firstLeader)
        try await leaderWorker.waitUntilReady()
        try await secondPart.value
        // The restarted member catches up with the leader's log before it counts as a follower again.
        try await waitFor("every member of the input queue back after the restart") {
            let members = try await cluster.members(of: input, askingNode: survivor)
            return members.count == 3 && members.values.allSatisfy { $0 == "leader" || $0 == "follower" }
        }

        // 3. The database lost.
        let thirdPart = Task { try await probe.publish(parts[2]) }
        let pausedWorkers = try await databaseOutage(database.outage, workers: workers)
        try await thirdPart.value

        try await probe.publish(parts[3])
        let result = try await run.finishOnBroker(on: cluster.nodes[0], topology: topology, probe: probe, workers: workers)
        try await run.checkStore(database.store, received: result.received)
        #expect(result.reconnects >= 1, "the leader's worker reconnected")
        let order = try run.orderReport(result.received)
        print(
            "fleet: 3 workers on 3 nodes sharing one PostgreSQL schema, \(run.lines.count) taps on \(run.notifications)",
            "notifications in 4 parts: a worker SIGKILLed at its 20th input (published, unconfirmed) and replaced;",
            "node \(firstLeader) (the input queue's leader) stopped mid-part-2, node \(electedLeader) elected, its worker",
            "503 then 200 after the restart, 3 members again;",
            "database down 10 s: workers \(pausedWorkers.sorted()) 503 then 200,",
            "settled per live worker \(result.settledPerWorker), \(result.redelivered) redelivered inputs found in the",
            "inbox, \(result.conflicts) version conflicts, \(result.retried) retried, \(result.reconnects) reconnection",
            "attempts, \(result.updates) updates (\(result.repeats) repeats, \(order.outOfVersionOrder) notifications out",
            "of version order on the wire), tap counts exact, updates golden in version order, nothing dead-lettered or",
            "unacknowledged; \(ContinuousClock.now - began) in all")
        await probe.cleanUp()
    }

    /// A worker on `node`, in a working directory of its own, on the fleet's database.
    private func startWorker(
        _ topology: TestTopology, database: SharedDatabase, node: BrokerNode, environment: [String: String] = [:]
    ) throws -> WorkerProcess {
        try WorkerProcess(
            topology: topology, statePath: database.state,
            environment: environment.merging(["RESPONDER_AMQP_URL": node.url]) { $1 },
            workingDirectory: try Paths.temporaryFolder("fleet-worker"))
    }

    /// Stops the database once the fleet has handled 20 more inputs, keeps it down for ten seconds while watching
    /// which workers report not-ready, starts it again and waits until every worker is ready; returns the workers
    /// (by number) that went not-ready. Each of them says why while paused, counts the outage, and logs that it
    /// resumed.
    private func databaseOutage(_ outage: DatabaseOutage, workers: [WorkerProcess]) async throws -> Set<Int> {
        let handledBefore = try await handled(by: workers)
        try await waitFor("the fleet to handle 20 inputs of part 3") { try await handled(by: workers) >= handledBefore + 20 }
        try await outage.stop()
        var paused = Set<Int>()
        let back = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < back {
            for (index, worker) in workers.enumerated() where !paused.contains(index + 1) {
                guard let reasons = await worker.text(of: "/health/ready"), reasons.contains("state store is unavailable")
                else { continue }
                paused.insert(index + 1)
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(!paused.isEmpty, "a worker must report not-ready while the database is down")
        try await outage.start()
        for worker in workers { try await worker.waitUntilReady() }
        for number in paused {
            let worker = workers[number - 1]
            #expect(try await worker.metric("responder_store_outages_total") >= 1, "worker \(number) counted the outage")
            // The log line comes after readiness: wait for it.
            try await worker.waitForLog("the state store answers again: resuming")
        }
        return paused
    }

    private func handled(by workers: [WorkerProcess]) async throws -> Double {
        var sum = 0.0
        for worker in workers { sum += try await worker.metric("responder_events_total") }
        return sum
    }

    /// Declares `topology`, through `node`.
    private func declareTopology(_ topology: TestTopology, through node: BrokerNode) async throws {
        var configuration = try AMQPConfiguration(url: node.url)
        configuration.connectionName = "worker-tests fleet declaration"
        let connection = try await AMQPConnection.connect(configuration)
        try await topology.declare(on: try await connection.openChannel())
        await connection.close()
    }
}
