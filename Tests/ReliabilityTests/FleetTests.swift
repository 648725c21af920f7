import AMQP
import Foundation
import NotificationEvents
import Testing
import WorkerHarness

/// A fleet: three `responder run` processes, each in a working directory of its own as if on a machine of its own,
/// each connected to a different node of a three-node RabbitMQ cluster whose quorum input queue has a member on
/// every node, all sharing one state store (a parameter, ``FleetStore``). A stream of 3,200 taps on 40
/// notifications goes out in four parts; while the first three are handled, a fault strikes at a known point: a
/// worker is SIGKILLed at its 20th input with outputs published and nothing confirmed or acknowledged, and a new one
/// takes its place; the node holding the input queue's leader stops once its worker has handled 20 inputs of the
/// second part, and starts again; for a store on a server, the database stops for ten seconds once the fleet has
/// handled 20 inputs of the third part. At the end every tap is counted exactly once, every notification's updates
/// are the golden ones in version order, nothing is dead-lettered or left unacknowledged, and readiness went
/// not-ready and back on the workers each fault struck.
@Suite(.enabled(if: BrokerCluster.isAvailable, "needs a three-node RabbitMQ cluster: run scripts/test"), .timeLimit(.minutes(10)))
struct FleetTests {
    @Test func aFleetOnAClusterSurvivesWorkerNodeAndDatabaseLoss() async throws {
        let cluster = try BrokerCluster.fromEnvironment()
        try await run(on: cluster, store: .sqlite(in: try Paths.temporaryFolder("fleet-shared")))
    }

    private func run(on cluster: BrokerCluster, store: FleetStore) async throws {
        let began = ContinuousClock.now
        let topology = TestTopology("fleet")
        let input = topology.topology.inputQueue
        // The input queue is declared through node 2, so its first leader is there (3.10 places a new quorum queue's
        // leader on the declaring node), the rest through node 1, where the classic output, dead-letter and retry
        // queues then live: the node stopped below is the leader's, and a classic queue is on one node only.
        try await declareInputQueue(topology, through: cluster.nodes[1])
        let probe = try await QueueProbe.open(topology, url: cluster.nodes[0].url)
        let members = try await cluster.members(of: input, askingNode: 1)
        #expect(members.count == 3, "the input queue has a member on each node: \(members)")
        let firstLeader = try await cluster.leader(of: input)
        try #require(firstLeader != 1, "the stopped node must not be the one holding the output queue")

        let run = try await TapRun(topology, notifications: 40, tapsEach: 80)
        let parts = stride(from: 0, to: run.lines.count, by: run.lines.count / 4).map {
            Array(run.lines[$0..<min($0 + run.lines.count / 4, run.lines.count)])
        }
        // Worker i connects to node i; the third crashes at its 20th input, published and not yet confirmed.
        var workers = try (1...3).map { number in
            try startWorker(
                topology, store: store, node: cluster.nodes[number - 1],
                environment: number == 3 ? ["RESPONDER_FAULT": "after-publish:20"] : [:])
        }
        defer { for worker in workers where worker.isRunning { worker.send(SIGKILL) } }
        for worker in workers { try await worker.waitUntilReady() }

        // 1. A worker lost: SIGKILL at a known point, and a new one on the same node in a fresh folder.
        let firstPart = Task { try await probe.publish(parts[0]) }
        let killStatus = try await workers[2].waitForExit(timeout: .seconds(120))
        #expect(killStatus == SIGKILL, "the third worker killed itself at its 20th input")
        workers[2] = try startWorker(topology, store: store, node: cluster.nodes[2])
        try await workers[2].waitUntilReady()
        try await firstPart.value

        // 2. The input queue's leader lost: its node stops once the worker there has handled 20 inputs of part 2.
        let leaderWorker = workers[firstLeader - 1]
        let handledBefore = try await leaderWorker.metric("responder_events_total")
        let secondPart = Task { try await probe.publish(parts[1]) }
        try await waitFor("the leader's worker to handle 20 inputs of part 2") {
            try await leaderWorker.metric("responder_events_total") >= handledBefore + 20
        }
        try await cluster.stopNode(firstLeader)
        try await waitFor(timeout: .seconds(60), "readiness to fail on node \(firstLeader)'s worker") {
            await leaderWorker.status(of: "/health/ready") == 503
        }
        let survivor = firstLeader == 2 ? 3 : 2
        try await waitFor(timeout: .seconds(60), "a new leader") {
            (try? await cluster.leader(of: input)).map { $0 != firstLeader } ?? false
        }
        let electedLeader = try await cluster.leader(of: input)
        try await cluster.startNode(firstLeader)
        try await leaderWorker.waitUntilReady(timeout: .seconds(120))
        try await secondPart.value
        // The restarted member catches up with the leader's log before it counts as a follower again.
        try await waitFor(timeout: .seconds(60), "every member of the input queue back after the restart") {
            let members = try await cluster.members(of: input, askingNode: survivor)
            return members.count == 3 && members.values.allSatisfy { $0 == "leader" || $0 == "follower" }
        }

        // 3. The database lost, for a store on a server.
        let thirdPart = Task { try await probe.publish(parts[2]) }
        var pausedWorkers = 0
        if let outage = store.outage {
            pausedWorkers = try await databaseOutage(outage, workers: workers)
        }
        try await thirdPart.value

        try await probe.publish(parts[3])
        let result = try await run.finishOnBroker(on: cluster.nodes[0], topology: topology, probe: probe, workers: workers)
        try await store.check(run, result.received)
        #expect(result.reconnects >= 1, "the leader's worker reconnected")
        let order = try run.orderReport(result.received)
        print(
            "fleet: 3 workers on 3 nodes sharing \(store.description), \(run.lines.count) taps on \(run.notifications)",
            "notifications in 4 parts: a worker SIGKILLed at its 20th input (published, unconfirmed) and replaced;",
            "node \(firstLeader) (the input queue's leader) stopped mid-part-2, node \(electedLeader) elected, its worker",
            "503 then 200 after the restart, 3 members again;",
            store.outage == nil ? "no database outage (a file);" : "database down 10 s, \(pausedWorkers) workers 503 then 200;",
            "settled per live worker \(result.settledPerWorker), \(result.redelivered) redelivered inputs found in the",
            "inbox, \(result.conflicts) version conflicts, \(result.retried) retried, \(result.reconnects) reconnection",
            "attempts, \(result.updates) updates (\(result.repeats) repeats, \(order.outOfVersionOrder) notifications out",
            "of version order on the wire), tap counts exact, updates golden in version order, nothing dead-lettered or",
            "unacknowledged; \(ContinuousClock.now - began) in all")
        await probe.cleanUp()
    }

    /// A worker on `node`, in a working directory of its own, on the fleet's store.
    private func startWorker(
        _ topology: TestTopology, store: FleetStore, node: BrokerNode, environment: [String: String] = [:]
    ) throws -> WorkerProcess {
        try WorkerProcess(
            topology: topology, statePath: store.state,
            environment: environment.merging(["RESPONDER_AMQP_URL": node.url]) { $1 },
            workingDirectory: try Paths.temporaryFolder("fleet-worker"))
    }

    /// Stops the database once the fleet has handled 20 more inputs, keeps it down for ten seconds while watching
    /// which workers report not-ready, starts it again and waits until every worker is ready; returns how many
    /// workers went not-ready.
    private func databaseOutage(_ outage: DatabaseOutage, workers: [WorkerProcess]) async throws -> Int {
        let handledBefore = try await handled(by: workers)
        try await waitFor("the fleet to handle 20 inputs of part 3") { try await handled(by: workers) >= handledBefore + 20 }
        try await outage.stop()
        var paused = Set<Int>()
        let back = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < back {
            for (index, worker) in workers.enumerated() where await worker.status(of: "/health/ready") == 503 {
                paused.insert(index)
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(!paused.isEmpty, "a worker must report not-ready while the database is down")
        try await outage.start()
        for worker in workers { try await worker.waitUntilReady(timeout: .seconds(120)) }
        return paused.count
    }

    private func handled(by workers: [WorkerProcess]) async throws -> Double {
        var sum = 0.0
        for worker in workers { sum += try await worker.metric("responder_events_total") }
        return sum
    }

    /// Declares only `topology`'s input queue, through `node`.
    private func declareInputQueue(_ topology: TestTopology, through node: BrokerNode) async throws {
        var configuration = try AMQPConfiguration(url: node.url)
        configuration.connectionName = "worker-tests fleet declaration"
        let connection = try await AMQPConnection.connect(configuration)
        let queue = try #require(topology.topology.declarations.queues.first { $0.name == topology.topology.inputQueue })
        let arguments = FieldTable(queue.arguments.sorted { $0.key < $1.key }.map { argument in
            switch argument.value {
            case .string(let value): (argument.key, FieldValue.string(value))
            case .integer(let value): (argument.key, FieldValue.int64(value))
            case .boolean(let value): (argument.key, FieldValue.bool(value))
            }
        })
        _ = try await connection.openChannel().declareQueue(queue.name, arguments: arguments)
        await connection.close()
    }
}
