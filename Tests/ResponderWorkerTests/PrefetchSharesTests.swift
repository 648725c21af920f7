import ResponderWorker
import Testing

/// One worker's prefetch is split among the queues it consumes, so in ordered mode the shards together hold at
/// most `--prefetch` inputs, each at least one.
@Suite struct PrefetchSharesTests {
    static func shares(prefetch: UInt16, shards: Int) -> [UInt16] {
        var configuration = WorkerConfiguration()
        configuration.prefetch = prefetch
        configuration.topology.shards = shards
        return configuration.consumedQueuePrefetches
    }

    @Test func theInputQueueHasTheWholePrefetch() {
        #expect(Self.shares(prefetch: 200, shards: 0) == [200])
    }

    @Test func theShardsShareThePrefetch() {
        #expect(Self.shares(prefetch: 200, shards: 4) == [50, 50, 50, 50])
        #expect(Self.shares(prefetch: 18, shards: 4) == [5, 5, 4, 4])
        #expect(Self.shares(prefetch: 4, shards: 4) == [1, 1, 1, 1])
        for shards in 1...64 {
            let shares = Self.shares(prefetch: 200, shards: shards)
            #expect(shares.count == shards && shares.map(Int.init).reduce(0, +) == 200, "\(shards) shards")
        }
    }

    /// A shard channel never gets 0 (which RabbitMQ reads as no limit at all): with more shards than prefetch,
    /// each takes one input at a time.
    @Test func everyShardGetsAtLeastOne() {
        #expect(Self.shares(prefetch: 2, shards: 3) == [1, 1, 1])
        #expect(Self.shares(prefetch: 1, shards: 1024).allSatisfy { $0 == 1 })
    }
}
