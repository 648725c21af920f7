import BrokerHarness
import Foundation
import Logging
import NotificationEvents
import PipelineHarness
import Responder
import StoreHarness
import Testing

/// What every ``StateStore`` must do, checked on each of them alike (in memory, SQLite, PostgreSQL): atomic
/// commits under optimistic concurrency, dedupe with byte-identical outputs, retention and pruning, and several
/// writers (another store on the same state, as another worker process) at once.
@Suite struct StateStoreConformanceTests {
    private func entry(_ id: String, _ request: String = "n", outputs: [OutboundMessage] = [], at date: Date = .now)
        -> InboxEntry
    {
        InboxEntry(source: "/tests", eventID: id, requestIdentifier: request, outputs: outputs, processedAt: date)
    }


    /// Outputs with every byte value in the body and the properties a worker sets.
    private let outputs = [
        OutboundMessage(
            exchange: "notifications.action-updates", routingKey: "photo-category", body: Array(0...255) + [0, 0],
            properties: MessageProperties(
                contentType: "application/cloudevents+json", messageID: "e1/actions-updated",
                headers: ["traceparent": .string("00-a-b-01"), "version": .int64(3)])),
        OutboundMessage(exchange: "", routingKey: "é ✓", body: [], properties: MessageProperties()),
    ]

    private func pipeline(_ store: any StateStore, _ handler: TestExtension) throws -> ResponsePipeline {
        var configuration = PipelineConfiguration()
        // Writers that contend for one notification all make progress, but any one may lose many times in a row.
        configuration.maxConflictRetries = 1000
        return ResponsePipeline(
            registry: try Fixtures.registry(extension: handler), store: store, configuration: configuration,
            logger: .quiet)
    }

    private let counter = TestExtension(actionSets: { state in
        [[NotificationAction(identifier: "taps-\(state.taps)", title: "")]]
    })

    @Test(arguments: StoreKind.allCases)
    func aCommitIsReadBackWholeAndItsOutputsByteForByte(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try await kind.make(in: directory)
        let record = NotificationRecord(
            requestIdentifier: "n", categoryIdentifier: "photo-category", actions: [Fixtures.like, Fixtures.share],
            handlerStates: ["a": Array(#"{"x":"\u0000é"}"#.utf8), "b": []])
        #expect(try await store.load(requestIdentifier: "n", source: "/tests", eventID: "e1") == .unprocessed(nil))
        #expect(
            try await store.commit(StateCommit(inboxEntry: entry("e1", outputs: outputs), notification: record))
                == .committed)
        var stored = record
        stored.version = 1
        #expect(try await store.notification("n") == stored)
        #expect(try await store.load(requestIdentifier: "n", source: "/tests", eventID: "e2") == .unprocessed(stored))
        guard case .processed(let again) = try await store.load(requestIdentifier: "n", source: "/tests", eventID: "e1") else {
            Issue.record("e1 is not processed")
            return
        }
        #expect(again == outputs)
        #expect(again.map(\.body) == outputs.map(\.body))
        #expect(again.map { $0.properties.storedBytes } == outputs.map { $0.properties.storedBytes })
    }

    /// A record keeps its notification's date and whether it was removed, and a commit that replaces the handler
    /// states leaves none of the stored ones behind.
    @Test(arguments: StoreKind.allCases)
    func aRecordKeepsItsDateAndRemovalAndAFreshStartDropsTheStoredHandlerStates(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try await kind.make(in: directory)
        let delivered = Date(timeIntervalSince1970: 1_795_165_200.123456)
        var record = NotificationRecord(
            requestIdentifier: "n", categoryIdentifier: "c", actions: [Fixtures.like],
            handlerStates: ["a": Array("1".utf8), "b": Array("2".utf8)], notificationDate: delivered)
        #expect(try await store.commit(StateCommit(inboxEntry: entry("e1"), notification: record)) == .committed)
        let stored = try #require(try await store.notification("n"))
        // PostgreSQL keeps microseconds, SQLite a double of seconds since 1970: the pipeline compares microseconds.
        #expect(abs(try #require(stored.notificationDate).timeIntervalSince(delivered)) < 0.000_001)
        #expect(stored.isRemoved == false)
        #expect(try await store.load(requestIdentifier: "n", source: "/tests", eventID: "e2") == .unprocessed(stored))

        record = stored
        record.categoryIdentifier = "other"
        record.actions = []
        record.handlerStates = [:]
        record.notificationDate = nil
        record.isRemoved = true
        #expect(
            try await store.commit(
                StateCommit(inboxEntry: entry("e3"), notification: record, replacesHandlerStates: true)) == .committed)
        record.version += 1
        #expect(try await store.notification("n") == record)
    }

    /// What `responder inspect` reads: a notification's own entries, newest first, with their outputs, at most the
    /// limit.
    @Test(arguments: StoreKind.allCases)
    func aNotificationsRecentInboxEntriesComeNewestFirst(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try await kind.make(in: directory)
        let start = Date(timeIntervalSince1970: 1_795_165_200)
        for (index, event) in ["e1", "e2", "e3"].enumerated() {
            let entry = InboxEntry(
                source: "/tests", eventID: event, requestIdentifier: "n", outputs: event == "e2" ? outputs : [],
                processedAt: start.addingTimeInterval(Double(index)))
            #expect(try await store.commit(StateCommit(inboxEntry: entry, notification: nil)) == .committed)
        }
        _ = try await store.change("other", event: "e4", at: start.addingTimeInterval(10))
        let recent = try await store.inboxEntries(of: "n", limit: 2)
        #expect(recent.map(\.eventID) == ["e3", "e2"])
        #expect(recent.last?.outputs == outputs)
        #expect(recent.first?.processedAt == start.addingTimeInterval(2))
        #expect(try await store.inboxEntries(of: "n", limit: 10).count == 3)
        #expect(try await store.inboxEntries(of: "nobody", limit: 10).isEmpty)
    }

    /// Ordered mode's fleet, two members on one state (as two worker processes): a shard goes to one claimer; the
    /// other takes it only once it is released, its holder left, or its holder's membership expired; renewing
    /// shows the live members and their shards, and a dead member's shards are free without anyone releasing them.
    @Test(arguments: StoreKind.allCases)
    func shardLeasesGoToOneLiveMemberAtATime(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let made = try await kind.make(in: directory)
        let one = try #require(made as? any FleetLeases, "every store of the suite keeps fleet leases")
        let other = try #require(try await kind.another(of: made, in: directory) as? any FleetLeases)
        #expect(try await one.renewMembership(of: "w1", for: .seconds(60)) == ShardLeases(members: ["w1"], holders: [:]))
        #expect(try await other.renewMembership(of: "w2", for: .seconds(60)).members == ["w1", "w2"])
        #expect(try await one.claimShard(0, for: "w1"))
        #expect(try await one.claimShard(0, for: "w1"), "claiming a shard it holds again")
        #expect(try await !other.claimShard(0, for: "w2"), "w1 holds shard 0")
        #expect(try await other.claimShard(1, for: "w2"))
        #expect(try await one.shardLeases() == ShardLeases(members: ["w1", "w2"], holders: [0: "w1", 1: "w2"]))
        try await one.releaseShards([0, 1], of: "w1")
        #expect(try await other.shardLeases().holders == [1: "w2"], "w1 released only what it held")
        #expect(try await other.claimShard(0, for: "w2"))
        try await other.leaveFleet("w2")
        #expect(try await one.renewMembership(of: "w1", for: .seconds(60)) == ShardLeases(members: ["w1"], holders: [:]))
        #expect(try await one.claimShard(1, for: "w1"), "w2 left")
        // A member that stops renewing: once its membership expires its shards are free.
        _ = try await other.renewMembership(of: "w3", for: .seconds(3))
        #expect(try await other.claimShard(2, for: "w3"))
        #expect(try await !one.claimShard(2, for: "w1"))
        let deadline = ContinuousClock.now + hangGuard
        while try await one.renewMembership(of: "w1", for: .seconds(60)).members.contains("w3") {
            try #require(ContinuousClock.now < deadline, "w3's membership never expired")
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(try await one.shardLeases() == ShardLeases(members: ["w1"], holders: [1: "w1"]))
        #expect(try await one.claimShard(2, for: "w1"), "w3 expired")
    }

    @Test(arguments: StoreKind.allCases)
    func aCommitOfAnEventProcessedMeanwhileReturnsTheStoredOutputs(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try await kind.make(in: directory)
        #expect(try await store.commit(StateCommit(inboxEntry: entry("e1", outputs: outputs), notification: nil)) == .committed)
        #expect(try await store.commit(StateCommit(inboxEntry: entry("e1"), notification: nil)) == .alreadyProcessed(outputs))
        // With a notification change too: nothing of it is written.
        let record = NotificationRecord(requestIdentifier: "n", categoryIdentifier: "c", actions: [Fixtures.like])
        #expect(try await store.commit(StateCommit(inboxEntry: entry("e1"), notification: record)) == .alreadyProcessed(outputs))
        #expect(try await store.notification("n") == nil)
        #expect(try await store.load(requestIdentifier: "n", source: "/tests", eventID: "e1") == .processed(outputs))
    }

    @Test(arguments: StoreKind.allCases)
    func aStaleCommitWritesNothing(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try await kind.make(in: directory)
        let record = NotificationRecord(requestIdentifier: "n", categoryIdentifier: "c", actions: [Fixtures.like])
        #expect(try await store.commit(StateCommit(inboxEntry: entry("e1"), notification: record)) == .committed)
        // A second writer that also started from "no record" loses.
        #expect(try await store.commit(StateCommit(inboxEntry: entry("e2"), notification: record)) == .versionConflict)
        var current = try #require(try await store.notification("n"))
        current.actions = [Fixtures.share]
        #expect(try await store.commit(StateCommit(inboxEntry: entry("e3"), notification: current)) == .committed)
        // A writer still holding version 1 loses too.
        #expect(try await store.commit(StateCommit(inboxEntry: entry("e4"), notification: current)) == .versionConflict)
        #expect(
            try await store.load(requestIdentifier: "n", source: "/tests", eventID: "e2")
                == .unprocessed(try await store.notification("n")))
        #expect(
            try await store.load(requestIdentifier: "n", source: "/tests", eventID: "e4")
                == .unprocessed(try await store.notification("n")))
        #expect(try await store.notification("n")?.version == 2)
        #expect(try await store.notification("n")?.actions == [Fixtures.share])
    }

    /// A commit that says the actions did not change keeps the stored ones, and still writes the handler states.
    @Test(arguments: StoreKind.allCases)
    func unchangedActionsAreKeptAndStatesWritten(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try await kind.make(in: directory)
        #expect(try await store.change("n", event: "e1", at: .now) == .committed)
        var record = try #require(try await store.notification("n"))
        record.handlerStates["likes"] = Array(#"{"taps":2}"#.utf8)
        #expect(
            try await store.commit(StateCommit(inboxEntry: entry("e2"), notification: record, actionsChanged: false))
                == .committed)
        let stored = try #require(try await store.notification("n"))
        #expect(stored.version == 2)
        #expect(stored.actions == [Fixtures.like])
        #expect(stored.handlerStates["likes"] == Array(#"{"taps":2}"#.utf8))
    }

    /// Two commits of the same event at once (a redelivery racing the original, on two workers): one effect,
    /// the same outputs for both.
    @Test(arguments: StoreKind.allCases)
    func twoCommitsOfTheSameEventAtOnceGiveOneEffect(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let one = try await kind.make(in: directory)
        let other = try await kind.another(of: one, in: directory)
        #expect(try await one.change("n", event: "e0", at: .now) == .committed)
        let loaded = try #require(try await one.notification("n"))
        for round in 1...10 {
            let version = loaded.version + Int64(round) - 1
            var record = loaded
            record.version = version
            record.handlerStates["likes"] = Array("{\"taps\":\(round)}".utf8)
            let commit = StateCommit(inboxEntry: entry("e\(round)", outputs: outputs), notification: record)
            async let first = one.commit(commit)
            async let second = other.commit(commit)
            let results = try await [first, second]
            #expect(results.filter { $0 == .committed }.count == 1, "round \(round): \(results)")
            #expect(results.filter { $0 == .alreadyProcessed(outputs) }.count == 1, "round \(round): \(results)")
            #expect(try await one.notification("n")?.version == version + 1)
        }
    }

    /// The commits of one batch each get the result they would get alone, in some order: a duplicate or a conflict of one leaves the others written, a later commit sees
    /// what an earlier one wrote, and a loser's event is left unprocessed.
    @Test(arguments: StoreKind.allCases)
    func commitsArrivingTogetherEachGetTheirOwnResult(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try await kind.make(in: directory)
        #expect(try await store.change("b", event: "b0", at: .now) == .committed)
        let loaded = try #require(try await store.notification("b"))
        func changed(_ record: NotificationRecord, state: String) -> NotificationRecord {
            var changed = record
            changed.handlerStates = ["likes": Array(state.utf8)]
            return changed
        }
        let fresh = NotificationRecord(requestIdentifier: "c", categoryIdentifier: "c", actions: [Fixtures.like])
        let redelivered = NotificationRecord(requestIdentifier: "d", categoryIdentifier: "c", actions: [Fixtures.share])
        let independent = (0..<32).map { n in
            let output = OutboundMessage(
                exchange: "x", routingKey: "r", body: Array("i\(n)".utf8) + [0, 255], properties: MessageProperties())
            let record = NotificationRecord(requestIdentifier: "i\(n)", categoryIdentifier: "c", actions: [Fixtures.like])
            return StateCommit(inboxEntry: entry("i\(n)", "i\(n)", outputs: [output]), notification: record)
        }
        let commits = [
            // The same event twice without a notification change, with different outputs.
            StateCommit(inboxEntry: entry("a1", "a", outputs: outputs), notification: nil),
            StateCommit(inboxEntry: entry("a1", "a"), notification: nil),
            // Two events changing one stored notification from the same version.
            StateCommit(inboxEntry: entry("b1", "b"), notification: changed(loaded, state: "1")),
            StateCommit(inboxEntry: entry("b2", "b"), notification: changed(loaded, state: "2")),
            // Two events creating one notification.
            StateCommit(inboxEntry: entry("c1", "c"), notification: fresh),
            StateCommit(inboxEntry: entry("c2", "c"), notification: fresh),
            // One event creating a notification twice: a redelivery racing its original.
            StateCommit(inboxEntry: entry("d1", "d", outputs: outputs), notification: redelivered),
            StateCommit(inboxEntry: entry("d1", "d", outputs: outputs), notification: redelivered),
        ] + independent
        let results = try await store.commitTogether(commits).map { try $0.get() }

        let aWinner = results[0] == .committed ? 0 : 1
        #expect(results[aWinner] == .committed)
        #expect(results[1 - aWinner] == .alreadyProcessed(commits[aWinner].inboxEntry.outputs), "\(results[0...1])")
        #expect(try await store.load(requestIdentifier: "a", source: "/tests", eventID: "a1") == .processed(commits[aWinner].inboxEntry.outputs))

        #expect(Set(results[2...3]) == [.committed, .versionConflict], "\(results[2...3])")
        let bWinner = results[2] == .committed ? 2 : 3
        let stored = try #require(try await store.notification("b"))
        #expect(stored.version == 2)
        #expect(stored.handlerStates == commits[bWinner].notification?.handlerStates)
        let bLoser = commits[5 - bWinner].inboxEntry.eventID
        #expect(try await store.load(requestIdentifier: "b", source: "/tests", eventID: bLoser) == .unprocessed(stored))

        #expect(Set(results[4...5]) == [.committed, .versionConflict], "\(results[4...5])")
        #expect(try await store.notification("c")?.version == 1)
        let cLoser = results[4] == .committed ? "c2" : "c1"
        #expect(try await store.load(requestIdentifier: "c", source: "/tests", eventID: cLoser) == .unprocessed(try await store.notification("c")))

        #expect(Set(results[6...7]) == [.committed, .alreadyProcessed(outputs)], "\(results[6...7])")
        #expect(try await store.notification("d")?.version == 1)
        #expect(try await store.notification("d")?.actions == [Fixtures.share])

        for (commit, result) in zip(independent, results[8...]) {
            let id = commit.inboxEntry.eventID
            #expect(result == .committed, "\(id)")
            #expect(try await store.load(requestIdentifier: id, source: "/tests", eventID: id) == .processed(commit.inboxEntry.outputs))
            #expect(try await store.notification(id)?.version == 1)
        }
    }

    /// The loads of one batch each get the snapshot they would get alone: processed events their stored outputs, others their notification or none, duplicates alike.
    @Test(arguments: StoreKind.allCases)
    func loadsArrivingTogetherEachGetTheirOwnSnapshot(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try await kind.make(in: directory)
        for n in stride(from: 0, to: 40, by: 2) {
            let record = NotificationRecord(requestIdentifier: "n\(n)", categoryIdentifier: "c", actions: [Fixtures.like])
            let output = OutboundMessage(
                exchange: "x", routingKey: "r", body: Array("n\(n)".utf8) + [0, 255], properties: MessageProperties())
            #expect(try await store.commit(StateCommit(inboxEntry: entry("e\(n)", "n\(n)", outputs: [output]), notification: record)) == .committed)
        }
        // Stored and unknown notifications, processed and new events, an event of another notification, and
        // every key twice.
        let keys = (0..<40).flatMap { n in
            [("n\(n)", "e\(n)"), ("n\(n)", "new\(n)"), ("n\(n)", "e\((n + 2) % 40)")]
        }
        let together = keys + keys
        let snapshots = await store.loadTogether(
            together.map { StateLoad(requestIdentifier: $0.0, source: "/tests", eventID: $0.1) }
        ).map { try? $0.get() }
        for (key, snapshot) in zip(together, snapshots) {
            let alone = try await store.load(requestIdentifier: key.0, source: "/tests", eventID: key.1)
            #expect(snapshot == alone, "\(key)")
        }
        #expect(try await store.load(requestIdentifier: "n1", source: "/tests", eventID: "new1") == .unprocessed(nil))
        guard case .unprocessed(let record?) = try await store.load(requestIdentifier: "n0", source: "/tests", eventID: "new0") else {
            Issue.record("n0 is not stored")
            return
        }
        #expect(record.version == 1)
    }

    /// A worker's whole prefetch redelivered to another worker while the first still commits it (a consumer that
    /// lost its channel): the two race event by event, batch against batch, and every event has one effect; the
    /// loser finds its outputs, or (when an earlier commit of its notification in its batch was not committed) a
    /// conflict, after which a worker loads again and finds them.
    @Test(arguments: StoreKind.allCases)
    func aRedeliveredBatchRacingItsOriginalGivesOneEffectPerEvent(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let one = try await kind.make(in: directory)
        let other = try await kind.another(of: one, in: directory)
        for round in 0..<3 {
            let commits = (0..<40).map { n in
                let id = "r\(round)-e\(n)"
                let output = OutboundMessage(exchange: "x", routingKey: id, body: Array(id.utf8), properties: MessageProperties())
                // Two events per notification: the second of a pair conflicts with the first or with its redelivery.
                let record = NotificationRecord(
                    requestIdentifier: "r\(round)-n\(n / 2)", categoryIdentifier: "c", actions: [Fixtures.like])
                return StateCommit(inboxEntry: entry(id, record.requestIdentifier, outputs: [output]), notification: record)
            }
            async let original = one.commitTogether(commits)
            async let redelivery = other.commitTogether(commits.reversed())
            let (first, second) = await (original, redelivery)
            for (commit, (mine, theirs)) in zip(commits, zip(first, second.reversed())) {
                let results = [try mine.get(), try theirs.get()]
                let id = commit.inboxEntry.eventID
                switch results.filter({ $0 == .committed }).count {
                case 1:
                    #expect(
                        results.contains(.alreadyProcessed(commit.inboxEntry.outputs)) || results.contains(.versionConflict),
                        "\(id): \(results)")
                    #expect(
                        try await one.load(
                            requestIdentifier: commit.inboxEntry.requestIdentifier, source: "/tests", eventID: id)
                            == .processed(commit.inboxEntry.outputs))
                case 0:
                    // Both lost to the other event of its notification: no effect at all, and nothing left behind.
                    #expect(results == [.versionConflict, .versionConflict], "\(id): \(results)")
                    #expect(try await one.load(requestIdentifier: "", source: "/tests", eventID: id) == .unprocessed(nil))
                default:
                    Issue.record("\(id) committed twice: \(results)")
                }
            }
            for n in 0..<20 {
                #expect(try await one.notification("r\(round)-n\(n)")?.version == 1)
            }
        }
    }

    /// The record of notification `request` at `version` with a `likes` state of `taps`.
    private func likes(_ request: String, taps: Int, version: Int64) -> NotificationRecord {
        NotificationRecord(
            requestIdentifier: request, categoryIdentifier: "photo-category", actions: [Fixtures.like],
            handlerStates: ["likes": Array("{\"taps\":\(taps)}".utf8)], version: version)
    }

    /// Several events of one notification in one batch, each computed from the version the one before it gives
    /// the notification (as a worker handles them in a batch): all commit, in the batch's order, whatever order
    /// their ids sort in, and the notification ends as the last one left it.
    @Test(arguments: StoreKind.allCases)
    func chainedCommitsOfOneNotificationInABatchAllCommit(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try await kind.make(in: directory)
        let ids = ["e-z", "e-m", "e-a"]
        let chain = ids.enumerated().map { n, id in
            StateCommit(
                inboxEntry: entry(id, outputs: [OutboundMessage(exchange: "x", routingKey: id, body: [UInt8(n)], properties: MessageProperties())]),
                notification: likes("n", taps: n + 1, version: Int64(n)))
        }
        let other = StateCommit(inboxEntry: entry("o1", "o"), notification: likes("o", taps: 1, version: 0))
        let results = try await store.commit([chain[0], other, chain[1], chain[2]]).map { try $0.get() }
        #expect(results == [.committed, .committed, .committed, .committed])
        #expect(try await store.notification("n") == likes("n", taps: 3, version: 3))
        for commit in chain {
            let id = commit.inboxEntry.eventID
            #expect(try await store.load(requestIdentifier: "n", source: "/tests", eventID: id) == .processed(commit.inboxEntry.outputs))
        }
    }

    /// A member of a batch that conflicts, or whose event was processed, gets that result alone: the commits of
    /// other notifications around it are written.
    @Test(arguments: StoreKind.allCases)
    func aConflictingMemberOfABatchDoesNotFailTheOthers(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try await kind.make(in: directory)
        #expect(try await store.commit(StateCommit(inboxEntry: entry("n1"), notification: likes("n", taps: 1, version: 0))) == .committed)
        let batch = [
            StateCommit(inboxEntry: entry("a1", "a"), notification: likes("a", taps: 1, version: 0)),
            StateCommit(inboxEntry: entry("n2"), notification: likes("n", taps: 2, version: 0)),
            StateCommit(inboxEntry: entry("b1", "b"), notification: likes("b", taps: 1, version: 0)),
            StateCommit(inboxEntry: entry("n1", "m"), notification: likes("m", taps: 1, version: 0)),
            StateCommit(inboxEntry: entry("c1", "c"), notification: nil),
        ]
        let results = try await store.commit(batch).map { try $0.get() }
        #expect(results == [.committed, .versionConflict, .committed, .idReused(requestIdentifier: "n"), .committed])
        #expect(try await store.notification("n") == likes("n", taps: 1, version: 1))
        #expect(try await store.load(requestIdentifier: "n", source: "/tests", eventID: "n2") == .unprocessed(likes("n", taps: 1, version: 1)))
        #expect(try await store.notification("a") == likes("a", taps: 1, version: 1))
        #expect(try await store.notification("b") == likes("b", taps: 1, version: 1))
        #expect(try await store.notification("m") == nil)
        #expect(try await store.load(requestIdentifier: "c", source: "/tests", eventID: "c1") == .processed([]))
    }

    /// Once a commit of a notification in a batch is not committed, its later commits in the batch are answered as
    /// version conflicts and not written, though one of them carries the version another writer's change gave the
    /// notification: it was computed from the uncommitted one, and would store a state that never followed the
    /// stored one. The same after an event found processed.
    @Test(arguments: StoreKind.allCases)
    func laterCommitsOfANotificationAfterOneNotCommittedAreConflicts(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try await kind.make(in: directory)
        // Another writer took the notification to version 2.
        #expect(try await store.commit(StateCommit(inboxEntry: entry("theirs-1"), notification: likes("n", taps: 10, version: 0))) == .committed)
        #expect(try await store.commit(StateCommit(inboxEntry: entry("theirs-2"), notification: likes("n", taps: 20, version: 1))) == .committed)
        let stored = likes("n", taps: 20, version: 2)
        // This batch was computed from version 1: its first commit conflicts, its second carries version 2.
        let stale = [
            StateCommit(inboxEntry: entry("mine-1"), notification: likes("n", taps: 11, version: 1)),
            StateCommit(inboxEntry: entry("mine-2"), notification: likes("n", taps: 12, version: 2)),
            StateCommit(inboxEntry: entry("mine-3"), notification: nil),
            StateCommit(inboxEntry: entry("other-1", "other"), notification: likes("other", taps: 1, version: 0)),
        ]
        let results = try await store.commit(stale).map { try $0.get() }
        #expect(results == [.versionConflict, .versionConflict, .versionConflict, .committed])
        #expect(try await store.notification("n") == stored)
        for id in ["mine-1", "mine-2", "mine-3"] {
            #expect(try await store.load(requestIdentifier: "n", source: "/tests", eventID: id) == .unprocessed(stored))
        }
        // A redelivered event (processed already) followed by one computed from the version it gave.
        let redelivered = [
            StateCommit(inboxEntry: entry("theirs-2"), notification: likes("n", taps: 21, version: 1)),
            StateCommit(inboxEntry: entry("mine-4"), notification: likes("n", taps: 22, version: 2)),
        ]
        #expect(try await store.commit(redelivered).map { try $0.get() } == [.alreadyProcessed([]), .versionConflict])
        #expect(try await store.notification("n") == stored)
        #expect(try await store.load(requestIdentifier: "n", source: "/tests", eventID: "mine-4") == .unprocessed(stored))
    }

    @Test(arguments: StoreKind.allCases)
    func storesOnTheSameStateSeeEachOthersCommits(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let one = try await kind.make(in: directory)
        let other = try await kind.another(of: one, in: directory)
        let first = try await pipeline(one, counter).process(Events.message(Events.response(id: "e1")))
        let fromOther = try await pipeline(other, counter).process(Events.message(Events.response(id: "e2")))
        #expect(try fromOther.outputs.first?.update.data.actions.map(\.identifier) == ["taps-2"])
        let redelivered = try await pipeline(other, counter).process(Events.message(Events.response(id: "e1")))
        #expect(redelivered.disposition == .deduplicated)
        #expect(redelivered.outputs == first.outputs)
        #expect(try await pipeline(one, counter).process(Events.message(Events.response(id: "e2"))).disposition == .deduplicated)
        #expect(counter.journal.entries.map(\.eventID) == ["e1", "e2"])
    }

    @Test(arguments: StoreKind.allCases)
    func concurrentWritersLoseNoTap(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let first = try await kind.make(in: directory)
        var stores = [first]
        for _ in 1..<3 { stores.append(try await kind.another(of: first, in: directory)) }
        let pipelines = try stores.map { try pipeline($0, counter) }
        await withTaskGroup(of: Void.self) { group in
            for (index, pipeline) in pipelines.enumerated() {
                group.addTask {
                    for n in 0..<10 {
                        let outcome = await pipeline.process(Events.message(Events.response(id: "w\(index)-\(n)")))
                        #expect(outcome.disposition == .updated)
                    }
                }
            }
        }
        let record = try #require(try await stores[0].notification("note-1"))
        #expect(record.version == 30)
        #expect(record.actions.map(\.identifier) == ["taps-30"])
    }

    @Test(arguments: StoreKind.allCases)
    func pruningForgetsOnlyOldInboxEntries(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try await kind.make(in: directory)
        let now = Date()
        for n in 0..<25 {
            _ = try await store.commit(
                StateCommit(inboxEntry: entry("old-\(n)", at: now.addingTimeInterval(-8 * 86_400)), notification: nil))
        }
        _ = try await store.commit(StateCommit(inboxEntry: entry("recent", at: now.addingTimeInterval(-3_600)), notification: nil))
        let pruned = try await store.pruneInbox(processedBefore: now.addingTimeInterval(-store.inboxRetention.seconds))
        #expect(pruned == 25)
        #expect(try await store.load(requestIdentifier: "n", source: "/tests", eventID: "old-0") == .unprocessed(nil))
        #expect(try await store.load(requestIdentifier: "n", source: "/tests", eventID: "recent") == .processed([]))
        // Nothing of the pruned entry is left behind: the same id can be processed afresh.
        #expect(try await store.commit(StateCommit(inboxEntry: entry("old-0", outputs: outputs), notification: nil)) == .committed)
        #expect(try await store.load(requestIdentifier: "n", source: "/tests", eventID: "old-0") == .processed(outputs))
        #expect(try await store.pruneInbox(processedBefore: now.addingTimeInterval(-store.inboxRetention.seconds)) == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func onlyNotificationsUnchangedForTheRetentionAreForgotten(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try await kind.make(in: directory)
        let now = Date()
        #expect(try await store.change("old", event: "o1", at: now.addingTimeInterval(-31 * 86_400)) == .committed)
        #expect(try await store.change("kept", event: "k1", at: now.addingTimeInterval(-31 * 86_400)) == .committed)
        // A later change keeps a notification, however old its first one.
        #expect(try await store.change("kept", event: "k2", at: now.addingTimeInterval(-3_600), version: 1) == .committed)

        let cutoff = now.addingTimeInterval(-store.notificationRetention.seconds)
        #expect(try await store.pruneNotifications(changedBefore: cutoff) == 1)
        #expect(try await store.notification("old") == nil)
        #expect(try await store.notification("kept")?.handlerStates["likes"] == Array(#"{"taps":1}"#.utf8))
        // Its handler states went with it: it starts afresh, at version 1.
        #expect(try await store.load(requestIdentifier: "old", source: "/tests", eventID: "o2") == .unprocessed(nil))
        #expect(try await store.change("old", event: "o2", at: now) == .committed)
        #expect(try await store.notification("old")?.version == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func theDefaultRetentionsAreSevenAndThirtyDays(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try await kind.make(in: directory)
        #expect(store.inboxRetention == .seconds(7 * 86_400))
        #expect(store.notificationRetention == .seconds(30 * 86_400))
    }
}
