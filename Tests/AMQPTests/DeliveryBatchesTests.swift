import Testing

@testable import AMQP

@Suite("A consumer's deliveries taken a batch at a time")
struct DeliveryBatchesTests {
    private func delivery(_ tag: UInt64) -> AMQPDelivery {
        AMQPDelivery(body: [], exchange: "x", routingKey: "k", deliveryTag: tag, consumerTag: "c1")
    }

    @Test("each batch the I/O thread handed over comes whole, in order; one taken in part leaves its rest first")
    func wholeBatches() async throws {
        let (stream, sink) = DeliveryStream.makeStream()
        sink.yield(.success([delivery(1), delivery(2), delivery(3)]))
        sink.yield(.success([delivery(4), delivery(5)]))
        sink.yield(.success([delivery(6)]))
        sink.finish()
        var deliveries = DeliveryBatches(stream.makeAsyncIterator())
        #expect(try await deliveries.next()?.deliveryTag == 1)
        #expect(try await deliveries.nextBatch()?.map(\.deliveryTag) == [2, 3])
        #expect(try await deliveries.nextBatch()?.map(\.deliveryTag) == [4, 5])
        #expect(try await deliveries.next()?.deliveryTag == 6)
        #expect(try await deliveries.nextBatch() == nil)
    }

    @Test("the channel's failure is thrown after the batches that came before it")
    func throwsAfterBatches() async throws {
        let (stream, sink) = DeliveryStream.makeStream()
        let waiting = Task { () -> ([[UInt64]], AMQPError?) in
            var deliveries = DeliveryBatches(stream.makeAsyncIterator())
            var taken: [[UInt64]] = []
            do throws(AMQPError) {
                while let batch = try await deliveries.nextBatch() { taken.append(batch.map(\.deliveryTag)) }
                return (taken, nil)
            } catch {
                return (taken, error)
            }
        }
        sink.yield(.success([delivery(1), delivery(2)]))
        sink.yield(.failure(.channelClosed(replyCode: 406, replyText: "gone")))
        sink.finish()
        let (taken, error) = await waiting.value
        #expect(taken == [[1, 2]])
        guard case .channelClosed(replyCode: 406, _)? = error else {
            Issue.record("expected the channel's closing, got \(String(describing: error))")
            return
        }
    }
}
