import BrokerHarness
import Foundation
import ResponderIntake
import ResponderWorker
import Testing
import WorkerHarness

/// `responder topology` prints what `responder run` declares, by the same flags and environment variables.
@Suite(.timeLimit(.minutes(10)))
struct TopologyCommandTests {
    static func declarations(_ json: String) throws -> TopologyDeclarations {
        try JSONDecoder().decode(TopologyDeclarations.self, from: Data(json.utf8))
    }

    @Test func theJSONFormIsTheDefaultPlan() async throws {
        let result = try await Tool.run(["topology", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.declarations(result.stdout) == Topology().declarations)
    }

    @Test func theHumanFormIsThePlansDescription() async throws {
        let result = try await Tool.run(["topology"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == Topology().declarations.humanDescription)
    }

    @Test func flagsWinOverTheEnvironment() async throws {
        let result = try await Tool.run(
            ["topology", "--json", "--input-queue", "flag.work", "--retry-delays", "2,20"],
            environment: ["RESPONDER_INPUT_QUEUE": "env.work", "RESPONDER_OUTPUT_QUEUE": "env.push", "RESPONDER_RETRY_DELAYS": "3"])
        #expect(result.status == 0, "\(result.stderr)")
        var expected = Topology()
        expected.inputQueue = "flag.work"
        expected.outputQueue = "env.push"
        expected.retryDelays = [2, 20]
        #expect(try Self.declarations(result.stdout) == expected.declarations)
    }

    @Test func shardsMakeTheOrderedPlanByFlagOrEnvironment() async throws {
        var expected = Topology()
        expected.shards = 4
        let byFlag = try await Tool.run(["topology", "--json", "--shards", "4"])
        #expect(byFlag.status == 0, "\(byFlag.stderr)")
        #expect(try Self.declarations(byFlag.stdout) == expected.declarations)
        let byEnvironment = try await Tool.run(["topology"], environment: ["RESPONDER_SHARDS": "4"])
        #expect(byEnvironment.status == 0, "\(byEnvironment.stderr)")
        #expect(byEnvironment.stdout == expected.declarations.humanDescription)
        let tooMany = try await Tool.run(["topology", "--shards", "5000"])
        #expect(tooMany.status != 0)
        #expect(tooMany.stderr.contains("--shards"))
    }

    @Test func aBadSettingIsRefusedWithItsName() async throws {
        let result = try await Tool.run(["topology"], environment: ["RESPONDER_DELIVERY_LIMIT": "lots"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("RESPONDER_DELIVERY_LIMIT=lots"))
    }

    /// What the worker declared on the broker matches the printed plan, arguments included.
    @Test(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"))
    func theBrokerHoldsWhatThePlanSays() async throws {
        let topology = TestTopology("topology", retryDelays: [1, 5])
        let printed = try await Tool.run(["topology", "--json"], environment: topology.environment)
        #expect(printed.status == 0, "\(printed.stderr)")
        let plan = try Self.declarations(printed.stdout)
        #expect(plan == topology.topology.declarations)

        let folder = try Paths.temporaryFolder()
        let worker = try WorkerProcess(topology: topology, statePath: folder.appendingPathComponent("state.sqlite").path)
        try await worker.waitUntilReady()

        let exchanges = try await TestBroker.ctl("list_exchanges", "--no-table-headers", "name", "type", "durable")
            .split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        for exchange in plan.exchanges {
            #expect(exchanges.contains([exchange.name, exchange.type, "true"]), "exchange \(exchange.name)")
        }
        // A busy broker's listing leaves out queues that do not answer in time: list until every planned one shows.
        let queues = try await waitForValue("every planned queue listed") { () -> [[String]]? in
            let rows = try await TestBroker.ctl("list_queues", "--no-table-headers", "name", "durable", "arguments")
                .split(separator: "\n")
                .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
            return plan.queues.allSatisfy { queue in rows.contains { $0.first == queue.name } } ? rows : nil
        }
        for queue in plan.queues {
            guard let row = queues.first(where: { $0.first == queue.name }), row.count == 3 else {
                Issue.record("queue \(queue.name) is not on the broker")
                continue
            }
            #expect(row[1] == "true", "\(queue.name) is durable")
            for (name, value) in queue.arguments {
                // rabbitmqctl prints arguments as Erlang tuples, an empty string as the empty list.
                let shown: String
                switch value {
                case .string(let text): shown = "{\"\(name)\",\(text.isEmpty ? "[]" : "\"\(text)\"")}"
                case .integer(let number): shown = "{\"\(name)\",\(number)}"
                case .boolean(let flag): shown = "{\"\(name)\",\(flag)}"
                }
                #expect(row[2].contains(shown), "\(queue.name): \(shown) in \(row[2])")
            }
        }
        let bindings = try await TestBroker.ctl("list_bindings", "--no-table-headers", "source_name", "destination_name", "routing_key")
            .split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        for binding in plan.bindings {
            #expect(bindings.contains([binding.exchange, binding.queue, binding.routingKey]), "binding \(binding)")
        }

        worker.send(SIGTERM)
        #expect(try await worker.waitForExit() == 0)
        let probe = try await QueueProbe.open(topology)
        await probe.cleanUp()
        try? FileManager.default.removeItem(at: folder)
    }
}
