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

    /// What arrived together is handled in batches of half the prefetch, so the broker works on one half of the window
    /// while the client handles the other; never an empty batch.
    @Test func aBatchIsHalfThePrefetchAtLeastOne() {
        var configuration = WorkerConfiguration()
        for (prefetch, batch) in [(200, 100), (201, 100), (3, 1), (2, 1), (1, 1)] {
            configuration.prefetch = UInt16(prefetch)
            #expect(configuration.largestBatch == batch, "prefetch \(prefetch)")
        }
    }
}
