import Testing

@testable import ResponderWorker

@Suite struct AckTrackerTests {
    @Test func acksOnlyTheSettledPrefix() {
        var tracker = AckTracker()
        for tag in UInt64(1)...5 { tracker.received(tag) }
        #expect(tracker.settled(3, acked: true) == nil)
        #expect(tracker.settled(1, acked: true) == 1)
        #expect(tracker.settled(2, acked: true) == 3)
        #expect(tracker.settled(5, acked: true) == nil)
        #expect(tracker.settled(4, acked: true) == 5)
        #expect(tracker.count == 0)
    }

    @Test func neverNamesANackedDeliveryInAnAck() {
        var tracker = AckTracker()
        for tag in UInt64(1)...3 { tracker.received(tag) }
        #expect(tracker.settled(1, acked: true) == 1)
        #expect(tracker.settled(3, acked: false) == nil)
        // 2 closes the gap; 3 was rejected on its own, so the ack covers 2 and names 2.
        #expect(tracker.settled(2, acked: true) == 2)
        #expect(tracker.count == 0)
    }

    @Test func aPrefixOfOnlyNacksAcksNothing() {
        var tracker = AckTracker()
        tracker.received(7)
        tracker.received(8)
        #expect(tracker.settled(7, acked: false) == nil)
        #expect(tracker.settled(8, acked: false) == nil)
        #expect(tracker.count == 0)
    }
}
