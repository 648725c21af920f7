import BrokerHarness
import Foundation
import Testing
import WorkerHarness

/// Ordered mode scaling out (issue 27): three `responder run` processes with `--shards 6` on one PostgreSQL schema.
/// The first starts alone and takes every shard; the two others join and the shards spread, two each
/// (`responder_shard_active`). A stream of RedGreen taps and resets (4,800 on 480 notifications), where order
/// changes the outcome, goes out in three parts: during the first, one worker SIGKILLs itself at its 20th
/// publication (outputs handed to the connection, nothing confirmed or acknowledged) and the two others take its
/// shards once its membership expires;
/// a fourth worker joins while the second part is published and takes its share from them; the third goes out
/// once the shards are spread again. At the end each living worker settled at least 20% of the inputs, every
/// notification's updates and final state equal a serial replay's, nothing is dead-lettered, and every update that
/// arrived twice (the killed worker's) carries the same bytes. Then a worker stops gracefully and the others take
/// its shards. On the single node, and on the three-node cluster with each worker on a node of its own.
@Suite(.enabled(if: SharedDatabase.isAvailable, "needs PostgreSQL: run scripts/test"), .timeLimit(.minutes(10)))
struct ShardSpreadTests {
    static let shards = 6

    @Test(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"))
    func sixShardsSpreadOverThreeWorkersAndMoveWhenOneDiesAndOneJoins() async throws {
        try await spreadAndMove(nodes: [try BrokerNode.shared()], label: "single node")
    }

    @Test(.enabled(if: BrokerCluster.isAvailable, "needs a three-node RabbitMQ cluster: run scripts/test"))
    func onAClusterEachWorkerOnItsOwnNode() async throws {
        try await spreadAndMove(nodes: try BrokerCluster.fromEnvironment().nodes, label: "three-node cluster")
    }

    /// The scenario, worker i connected to `nodes[i mod count]`; the stream goes in and is checked through the first.
    private func spreadAndMove(nodes: [BrokerNode], label: String) async throws {
        let node = nodes[0]
        let database = try await SharedDatabase.fresh()
        defer { database.close() }
        let topology = TestTopology("spread", shards: Self.shards)
        let probe = try await QueueProbe.open(topology, url: node.url)
        var started = 0
        let startWorker = { (environment: [String: String]) throws -> WorkerProcess in
            defer { started += 1 }
            return try WorkerProcess(
                topology: topology, statePath: database.state,
                environment: environment.merging(["RESPONDER_AMQP_URL": nodes[started % nodes.count].url]) { $1 },
                workingDirectory: try Paths.temporaryFolder("spread-worker"))
        }
        // Many notifications, so that two shards of six carry close to a third of them whatever the hash does, and
        // 85% of the stream after the join, so that the worker that joined settles its fifth.
        let stream = try await OrderedRun(topology, notifications: 480, eventsEach: 10)
        let parts = [
            Array(stream.lines[..<360]), Array(stream.lines[360..<720]), Array(stream.lines[720...]),
        ]

        // 1. Spread, whatever the start order: the first alone holds all six, then each of three holds two.
        let first = try startWorker([:])
        try await first.waitUntilReady()
        try await waitFor("the first worker to hold every shard") {
            try await first.metric("responder_shard_active") == Double(Self.shards)
        }
        let doomed = try startWorker(["RESPONDER_FAULT": "after-publish:20"])
        let third = try startWorker([:])
        var workers = [first, doomed, third]
        defer { for worker in workers where worker.isRunning { worker.send(SIGKILL) } }
        for worker in workers { try await worker.waitUntilReady() }
        let spreadIn = try await waitForSpread(workers, "three workers after two joined")

        // 2. Death: the doomed worker kills itself mid-part-1; its two shards go to the others once its membership
        // expires (10 s) plus a heartbeat or two.
        let firstPart = Task { try await probe.publish(parts[0]) }
        #expect(try await doomed.waitForExit() == SIGKILL, "killed by its fault")
        let died = ContinuousClock.now
        try await firstPart.value
        workers = [first, third]
        let afterDeath = try await waitForSpread(workers, "the two survivors after the death", since: died)

        // 3. Join under load: a fourth worker starts while part 2 is published and takes its share.
        let secondPart = Task { try await probe.publish(parts[1]) }
        let joined = try startWorker([:])
        workers.append(joined)
        try await joined.waitUntilReady()
        let afterJoin = try await waitForSpread(workers, "three workers after the join")
        try await secondPart.value
        try await probe.publish(parts[2])

        try await waitUntilSettled(topology, on: node, probe: probe, workers: workers)
        var settled: [Int] = []
        for worker in workers { settled.append(Int(try await worker.metric("responder_events_total"))) }
        let updates = try await probe.takeUpdates(stream.goldenUpdateCount)
        let deadLetters = try await probe.count(topology.topology.deadLetterQueue)
        let comparison = try await stream.compare(updates, store: database.store)
        #expect(comparison.differentUpdates.isEmpty,
                "\(comparison.differentUpdates.count) notifications' updates differ from the replay; \(comparison.example)")
        #expect(comparison.differentFinalState.isEmpty, "final state differs: \(comparison.differentFinalState.prefix(5))")
        #expect(deadLetters == 0)
        for (index, count) in settled.enumerated() {
            #expect(count * 5 >= stream.lines.count, "worker \(index + 1) settled \(count) of \(stream.lines.count)")
        }

        // 4. Graceful leave: the joined worker stops; the two others take its shards at their next heartbeat.
        joined.send(SIGTERM)
        #expect(try await joined.waitForExit() == 0)
        let afterLeave = try await waitForSpread([first, third], "the two left after a graceful stop")
        for worker in [first, third] { worker.send(SIGTERM) }
        for worker in [first, third] { #expect(try await worker.waitForExit() == 0, "a graceful stop exits 0") }
        print(
            "shard spread on the \(label): \(stream.lines.count) events on \(stream.notifications) notifications over \(Self.shards)",
            "shards on PostgreSQL; spread over 3 workers \(spreadIn) after the last joined; a worker SIGKILLed at its",
            "20th publication, its shards taken over \(afterDeath) after it died; a worker joined under load, spread",
            "again \(afterJoin) after it was ready; a graceful stop, spread again in \(afterLeave); settled per",
            "living worker \(settled)",
            "(\(settled.map { $0 * 100 / stream.lines.count })% of the inputs); \(comparison.repeats) updates",
            "repeated with the same bytes, updates and final states equal the serial replay, nothing dead-lettered")
        await probe.cleanUp()
    }

    /// Waits until every shard is held by exactly one of `workers` and each holds its share (S/N give or take one);
    /// returns how long that took since `began`.
    private func waitForSpread(
        _ workers: [WorkerProcess], _ what: String, since began: ContinuousClock.Instant = .now
    ) async throws -> Duration {
        let least = Self.shards / workers.count
        try await waitFor("the shards to spread over \(what)") {
            var held: [Double] = []
            for worker in workers { held.append(try await worker.metric("responder_shard_active")) }
            return held.reduce(0, +) == Double(Self.shards) && held.allSatisfy { $0 >= Double(least) && $0 <= Double(least + 1) }
        }
        return ContinuousClock.now - began
    }
}
