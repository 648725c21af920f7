import Testing

@testable import ResponderWorker

@Suite struct AckTrackerTests {
    private typealias Acks = AckTracker.Acks

    private func tracker(receiving tags: ClosedRange<UInt64>) -> AckTracker {
        var tracker = AckTracker()
        for tag in tags { tracker.received(tag) }
        return tracker
    }

    @Test func inOrderSettlementsTakenTogetherShareOneMultipleAck() {
        var tracker = tracker(receiving: 1...5)
        for tag in UInt64(1)...3 { tracker.settled(tag, acked: true) }
        #expect(tracker.takeAcks() == Acks(through: 3))
        #expect(tracker.count == 2)
        tracker.settled(4, acked: true)
        #expect(tracker.takeAcks() == Acks(through: 4))
        #expect(tracker.takeAcks().isEmpty)
    }

    /// Each ack pass gives the read times of exactly the deliveries it acks, once each, whether in the `multiple`
    /// prefix or alone, and none of a rejected one: what the delivery-to-ack histogram records.
    @Test func eachAckPassGivesTheArrivalTimesOfTheDeliveriesItAcks() {
        let start = ContinuousClock.now
        func arrival(_ tag: UInt64) -> ContinuousClock.Instant { start + .milliseconds(Int(tag)) }
        var tracker = AckTracker()
        for tag in UInt64(1)...5 { tracker.received(tag, arrivalTime: arrival(tag)) }
        tracker.settled(2, acked: true)
        tracker.settled(4, acked: true)
        #expect(tracker.takeAcks() == Acks(alone: [2, 4], arrivalTimes: [arrival(2), arrival(4)]))
        tracker.settled(3, acked: false)
        tracker.settled(1, acked: true)
        // The prefix 1 to 4: 1 is acked now, 2 and 4 were already, 3 was rejected.
        #expect(tracker.takeAcks() == Acks(through: 1, arrivalTimes: [arrival(1)]))
        tracker.settled(5, acked: true)
        #expect(tracker.takeAcks() == Acks(through: 5, arrivalTimes: [arrival(5)]))
    }

    @Test func aDeliveryBehindAnUnsettledOneIsAckedAloneAtOnce() {
        var tracker = tracker(receiving: 1...5)
        tracker.settled(3, acked: true)
        tracker.settled(5, acked: true)
        // 1, 2 and 4 are in flight: a `multiple` ack would cover them, so 3 and 5 go alone, in settlement order.
        #expect(tracker.takeAcks() == Acks(alone: [3, 5]))
        tracker.settled(1, acked: true)
        #expect(tracker.takeAcks() == Acks(through: 1))
        tracker.settled(2, acked: true)
        // 3 is acked already: the prefix passes it but the ack names 2.
        #expect(tracker.takeAcks() == Acks(through: 2))
        tracker.settled(4, acked: true)
        #expect(tracker.takeAcks() == Acks(through: 4))
        #expect(tracker.count == 0)
    }

    /// Behind deliveries that only wait for their confirms, a settled one waits for the `multiple` ack their
    /// confirms bring, instead of an ack frame of its own (each a command in a quorum queue's log).
    @Test func aDeliveryBehindOnesWaitingForConfirmsWaitsForTheMultipleAck() {
        let start = ContinuousClock.now
        func arrival(_ tag: UInt64) -> ContinuousClock.Instant { start + .milliseconds(Int(tag)) }
        var tracker = AckTracker()
        for tag in UInt64(1)...4 { tracker.received(tag, arrivalTime: arrival(tag)) }
        tracker.confirming(1)
        tracker.settled(2, acked: true)
        tracker.confirming(3)
        tracker.settled(4, acked: true)
        #expect(tracker.takeAcks().isEmpty)
        #expect(tracker.count == 4)
        tracker.settled(1, acked: true)
        #expect(tracker.takeAcks() == Acks(through: 2, arrivalTimes: [arrival(1), arrival(2)]))
        tracker.settled(3, acked: true)
        #expect(tracker.takeAcks() == Acks(through: 4, arrivalTimes: [arrival(3), arrival(4)]))
        #expect(tracker.count == 0)
    }

    /// Behind a delivery still being handled (a slow handler, an ordered retry's delay), settled ones go alone at
    /// once, even those also behind deliveries waiting for confirms.
    @Test func aDeliveryBehindOneBeingHandledIsAckedAloneThoughOthersWaitForConfirms() {
        var tracker = tracker(receiving: 1...5)
        tracker.confirming(1)
        tracker.settled(2, acked: true)
        tracker.settled(4, acked: true)
        tracker.confirming(5)
        // 3 is being handled: 4 goes alone; 2 is behind 1's confirm only and waits.
        #expect(tracker.takeAcks() == Acks(alone: [4]))
        tracker.settled(1, acked: false)
        #expect(tracker.takeAcks() == Acks(through: 2))
        tracker.settled(3, acked: true)
        #expect(tracker.takeAcks() == Acks(through: 3))
        tracker.settled(5, acked: true)
        #expect(tracker.takeAcks() == Acks(through: 5))
        #expect(tracker.count == 0)
    }

    @Test(arguments: [Set<UInt64>(), [2], [1, 4], [3, 5], [1, 2, 3, 4, 5]], [Set<UInt64>(), [1], [2, 4], [1, 2, 3, 4, 5]])
    func neverAcksPastAnUnsettledDelivery(rejected: Set<UInt64>, confirming: Set<UInt64>) {
        // Every order of settling five deliveries (`rejected` ones rejected, the rest accepted; `confirming` ones
        // waiting for confirms first), taking the acks after each: no ack covers a delivery in flight or names a
        // rejected one, and every accepted delivery is acked exactly once, as soon as it is settled unless only
        // deliveries waiting for confirms are ahead of it (a crash at any point loses nothing unsettled, and the
        // broker never sees a tag twice).
        for order in orders(of: (UInt64(1)...5).map(Step.settled)) {
            var tracker = tracker(receiving: 1...5)
            for tag in confirming.sorted() { tracker.confirming(tag) }
            var accepted = Set<UInt64>()
            var rejectedSoFar = Set<UInt64>()
            var acked = Set<UInt64>()
            var due = Set<UInt64>()
            for case .settled(let tag) in order {
                tracker.settled(tag, acked: !rejected.contains(tag))
                if rejected.contains(tag) { rejectedSoFar.insert(tag) } else { accepted.insert(tag) }
                let acks = tracker.takeAcks()
                if let through = acks.through {
                    // What the broker still holds unacked up to `through`: neither acked nor rejected before.
                    let covered = Set((UInt64(1)...through).filter { !acked.contains($0) && !rejectedSoFar.contains($0) })
                    #expect(covered.isSubset(of: accepted))
                    #expect(accepted.contains(through) && !acked.contains(through))
                    acked.formUnion(covered)
                }
                for tag in acks.alone {
                    #expect(accepted.contains(tag) && !acked.contains(tag))
                    acked.insert(tag)
                }
                // Due: accepted deliveries behind one being handled, or with every delivery ahead settled; the
                // others wait for the confirms ahead of them.
                let settled = accepted.union(rejectedSoFar)
                let handling = (UInt64(1)...5).first { !settled.contains($0) && !confirming.contains($0) } ?? 6
                due.formUnion(accepted.filter { tag in tag > handling || (UInt64(1)..<tag).allSatisfy(settled.contains) })
                #expect(acked == due)
            }
            #expect(acked == accepted)
            #expect(tracker.count == 0)
        }
    }

    @Test func neverNamesARejectedDeliveryInAnAck() {
        var tracker = tracker(receiving: 1...3)
        tracker.settled(1, acked: true)
        #expect(tracker.takeAcks() == Acks(through: 1))
        tracker.settled(3, acked: false)
        #expect(tracker.takeAcks().isEmpty)
        // 2 closes the gap; 3 was rejected on its own, so the ack covers 2 and names 2.
        tracker.settled(2, acked: true)
        #expect(tracker.takeAcks() == Acks(through: 2))
        #expect(tracker.count == 0)
    }

    @Test func aRejectBehindTheAcksEndsTheMultipleAckBeforeIt() {
        var tracker = tracker(receiving: 1...4)
        tracker.settled(1, acked: true)
        tracker.settled(2, acked: true)
        tracker.settled(3, acked: false)
        tracker.settled(4, acked: true)
        #expect(tracker.takeAcks() == Acks(through: 4))
        #expect(tracker.count == 0)
    }

    @Test func aPrefixOfOnlyRejectsAcksNothing() {
        var tracker = tracker(receiving: 7...8)
        tracker.settled(7, acked: false)
        tracker.settled(8, acked: false)
        #expect(tracker.takeAcks().isEmpty)
        #expect(tracker.count == 0)
    }

    @Test func aDeliveryAckedAloneIsNotAckedAgainWhenThePrefixReachesIt() {
        var tracker = tracker(receiving: 1...3)
        tracker.settled(2, acked: true)
        #expect(tracker.takeAcks() == Acks(alone: [2]))
        tracker.settled(1, acked: false)
        // 1 was rejected and 2 acked alone: nothing of the prefix is left to ack.
        #expect(tracker.takeAcks().isEmpty)
        tracker.settled(3, acked: true)
        #expect(tracker.takeAcks() == Acks(through: 3))
    }

    /// One step of an input's life as the session reports it: its outputs published, or its settlement.
    private enum Step: Equatable {
        case confirming(UInt64)
        case settled(UInt64)
    }

    /// Every order of four deliveries' steps in which each first waits for its confirms and is then settled (the
    /// session's order for an input that publishes), interleaved every way, with `rejected` ones rejected: acks
    /// never cover a delivery in flight nor name a rejected one, each accepted delivery is acked once, as soon as it
    /// is due (behind one being handled, or with every delivery ahead settled), and each ack pass gives exactly the
    /// read times of the deliveries it acks.
    @Test(arguments: [Set<UInt64>(), [1], [2, 3]])
    func interleavedConfirmsAndSettlementsAckEachDeliveryOnceWhenDue(rejected: Set<UInt64>) {
        let start = ContinuousClock.now
        func arrival(_ tag: UInt64) -> ContinuousClock.Instant { start + .milliseconds(Int(tag)) }
        let tags = Array(UInt64(1)...4)
        for order in orders(of: tags.flatMap { [Step.confirming($0), Step.settled($0)] }) {
            var tracker = AckTracker()
            for tag in tags { tracker.received(tag, arrivalTime: arrival(tag)) }
            var confirming = Set<UInt64>()
            var settled = Set<UInt64>()
            var acked = Set<UInt64>()
            var due = Set<UInt64>()
            for step in order {
                switch step {
                case .confirming(let tag):
                    tracker.confirming(tag)
                    confirming.insert(tag)
                case .settled(let tag):
                    tracker.settled(tag, acked: !rejected.contains(tag))
                    settled.insert(tag)
                }
                let acks = tracker.takeAcks()
                var newlyAcked: [UInt64] = []
                if let through = acks.through {
                    let covered = (UInt64(1)...through).filter { !acked.contains($0) && !rejected.contains($0) }
                    #expect(covered.allSatisfy { settled.contains($0) })
                    newlyAcked += covered
                }
                for tag in acks.alone {
                    #expect(settled.contains(tag) && !rejected.contains(tag) && !acked.contains(tag))
                    newlyAcked.append(tag)
                }
                #expect(Set(newlyAcked).count == newlyAcked.count)
                acked.formUnion(newlyAcked)
                #expect(acks.arrivalTimes.sorted() == newlyAcked.map(arrival).sorted())
                let accepted = settled.subtracting(rejected)
                let handling = tags.first { !settled.contains($0) && !confirming.contains($0) } ?? 5
                due.formUnion(accepted.filter { tag in tag > handling || (1..<tag).allSatisfy(settled.contains) })
                #expect(acked == due)
            }
            #expect(acked == Set(tags).subtracting(rejected))
            #expect(tracker.count == 0)
        }
    }

    /// Every order of `steps` in which each delivery's `confirming` step comes before its `settled` one: of settlements
    /// alone, every permutation.
    private func orders(of steps: [Step]) -> [[Step]] {
        guard !steps.isEmpty else { return [[]] }
        return steps.indices.flatMap { index -> [[Step]] in
            let step = steps[index]
            if case .settled(let tag) = step, steps.contains(.confirming(tag)) { return [] }
            var rest = steps
            rest.remove(at: index)
            return orders(of: rest).map { [step] + $0 }
        }
    }
}
