@testable import AMQP
import BrokerHarness
import Foundation
import Testing

@Suite("Connections sharing one I/O thread", .enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"))
struct SharedThreadTests {
    @Test("two connections on one thread keep their own heartbeats: one going silent is lost, the other lives on")
    func heartbeatsPerConnection() async throws {
        let thread = IOThread(name: "shared-thread-test")
        defer { thread.endWhenIdle() }
        let broker = try AMQPConfiguration(url: TestBroker.url ?? "")
        let relay = try FaultyProxy(toPort: broker.port)
        defer { relay.stop() }
        var relayed = try TestBroker.configuration(name: "relayed")
        relayed.host = "127.0.0.1"
        relayed.port = relay.port
        relayed.heartbeat = .seconds(1)
        var direct = try TestBroker.configuration(name: "direct")
        direct.heartbeat = .seconds(1)
        let silent = try await AMQPConnection.connect(relayed, on: thread)
        let live = try await AMQPConnection.connect(direct, on: thread)
        let liveChannel = try await live.openChannel()
        let queue = try await liveChannel.declareQueue("", durable: false, exclusive: true).name
        let collector = DeliveryCollector(try await liveChannel.consume(queue: queue))

        relay.silence()
        let silencedAt = ContinuousClock.now
        var end: AMQPConnectionEvent?
        for await event in silent.events {
            if case .closed = event { end = event }
        }
        guard case .closed(.library(let status, _))? = end else {
            Issue.record("the silent connection ended with \(String(describing: end))")
            return
        }
        #expect(status == -0x000F, "AMQP_STATUS_HEARTBEAT_TIMEOUT")
        #expect(ContinuousClock.now - silencedAt < .seconds(10))
        // Quiet meanwhile, the live connection kept sending heartbeats through the same thread: three more
        // intervals later the broker still serves it.
        try await Task.sleep(for: .seconds(3))
        #expect(live.isOpen)
        try await liveChannel.publish([7], exchange: "", routingKey: queue)
        #expect(try await collector.waitFor(1).map(\.body) == [[7]])
        await live.close()
    }

    @Test("a task on the thread that suspends leaves it free for the other connection's I/O")
    func suspendedTaskDoesNotStallIO() async throws {
        let thread = IOThread(name: "shared-thread-test")
        defer { thread.endWhenIdle() }
        let first = try await AMQPConnection.connect(try TestBroker.configuration(name: "first"), on: thread)
        let second = try await AMQPConnection.connect(try TestBroker.configuration(name: "second"), on: thread)
        let gate = AsyncStream<Void>.makeStream()
        try await withTaskExecutorPreference(thread) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    // Suspends on the thread until the other task is done with the broker.
                    for await _ in gate.stream {}
                    let channel = try await first.openChannel()
                    await channel.close()
                }
                group.addTask {
                    defer { gate.continuation.finish() }
                    let channel = try await second.openChannel()
                    try await channel.enablePublisherConfirms()
                    let queue = try await channel.declareQueue(Broker.uniqueName(), durable: false, exclusive: true).name
                    for index in 0..<50 {
                        try await channel.publish([UInt8(index)], exchange: "", routingKey: queue)
                    }
                    #expect(try await channel.declareQueue(queue, durable: false, exclusive: true).messageCount == 50)
                }
                try await group.waitForAll()
            }
        }
        await first.close()
        await second.close()
    }

    @Test("a connection's own thread ends once the connection closes")
    func ownThreadEndsWithItsConnection() async throws {
        let connection = try await AMQPConnection.connect(try AMQPConfiguration(url: TestBroker.url ?? ""))
        let thread = connection.core.thread
        await connection.close()
        let deadline = ContinuousClock.now + hangGuard
        while !thread.hasEnded {
            try #require(ContinuousClock.now < deadline, "the connection's thread did not end")
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
