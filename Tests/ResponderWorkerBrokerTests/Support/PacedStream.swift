import Foundation
import WorkerHarness

/// A RedGreen stream a producer keeps publishing while a test disturbs the worker: one tap on each of 10
/// notifications every 250 ms, 40 taps each (10 s in all), on a connection of its own.
struct PacedStream {
    let check: StreamCheck
    private let producer: QueueProbe
    private let publishing: Task<Void, any Error>

    /// Starts publishing to `topology`'s input exchange.
    static func start(_ topology: TestTopology) async throws -> PacedStream {
        let check = StreamCheck(prefix: topology.prefix, notifications: 10, tapsEach: 40)
        let stream = RedGreenTaps.stream(
            prefix: check.prefix, notifications: check.notifications, tapsEach: check.tapsEach,
            exchange: topology.topology.inputExchange)
        let producer = try await QueueProbe.open(topology, name: "producer")
        let publishing = Task {
            for start in stride(from: 0, to: stream.count, by: check.notifications) {
                try await producer.publish(Array(stream[start..<start + check.notifications]))
                try await Task.sleep(for: .milliseconds(250))
            }
        }
        return PacedStream(check: check, producer: producer, publishing: publishing)
    }

    /// Waits until everything is published, then closes the producer's connection.
    func finishPublishing() async throws {
        let published = await publishing.result
        await producer.channel.connection.close()
        try published.get()
    }
}
