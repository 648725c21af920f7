import Foundation
import NotificationEvents
import Tracing

extension ResponsePipeline {
    /// Handles a batch of decoded events and returns one outcome per event, in order: an event seen before gets
    /// its stored outputs, others run their handlers, and the effects are committed. Handler and store errors are
    /// returned as ``ResponseOutcome/failed(_:retryable:)``, except a store's ``StateStoreUnavailable``, returned as
    /// ``ResponseOutcome/storeUnavailable(_:)``.
    ///
    /// The batch takes one store load and one store commit (more only after version conflicts). The events of one
    /// notification are handled in the batch's order, each on the state the one before it left (record, actions,
    /// version); the chains of different notifications run concurrently, at most `concurrency` at once. A version
    /// conflict handles that notification's events of the batch again from a fresh load, up to
    /// ``PipelineConfiguration/maxConflictRetries`` times. Events of one notification must not be handled by two
    /// batches of one process at once; across processes, optimistic concurrency on the notification's version keeps
    /// them consistent.
    ///
    /// With a ``PipelineConfiguration/tracer``, each event's handling is a `handle` span (its part of the store
    /// commit a `commit` span within it), a child of the span in the task's service context.
    public func handle(_ batch: [DecodedInput], concurrency: Int = 1) async -> [ResponseOutcome] {
        await handle(batch, concurrency: concurrency, under: [], holdingBack: nil).outcomes.map { $0! }
    }

    /// Handles a batch as ``handle(_:concurrency:)`` does, with each event's `handle` span a child of its context in
    /// `parents` (by position; the task's service context where it is nil or `parents` is empty), and with
    /// `holdingBack`: an event whose outcome it accepts holds back its notification's later events of the batch,
    /// which are then not handled (their outcome is nil), so that none of them overtakes it. Other notifications go
    /// on. What ordered mode's retries and store waits in place need.
    ///
    /// The handlers run in tasks of their own (so that one past its limit can be left behind), which prefer
    /// `executor`: the caller's own thread, such as a broker session's, so that a handler that does not suspend costs
    /// no hop to another thread and back. A new task does not inherit its creator's executor preference, so it is
    /// passed here; nil runs them on the global concurrent executor.
    ///
    /// With a `patience`, it waits for a notification's handler calls only that long after the last of the batch's
    /// notifications started: a notification whose call still runs then is a ``SlowChain`` of the result, whose
    /// events settle on their own (``SlowChain/outcomes()``), while the batch's other outcomes are returned at once.
    /// So a slow call holds only its own notification; its lane stays taken, and the caller counts it against its
    /// concurrency. Without one, every outcome is in ``BatchOutcomes/outcomes``.
    public func handle(
        _ batch: [DecodedInput], concurrency: Int, under parents: [ServiceContext?],
        holdingBack holds: (@Sendable (ResponseOutcome) -> Bool)?, on executor: (any TaskExecutor)? = nil,
        patience: Duration? = nil
    ) async -> BatchOutcomes {
        let members = batch.indices.map { index in
            BatchMember(
                input: batch[index], log: ResponseLog(logger, for: batch[index]),
                span: startSpan("handle", under: parents.isEmpty ? nil : parents[index]))
        }
        var outcomes = [ResponseOutcome?](repeating: nil, count: batch.count)
        var receivers = [Route.Receiver?](repeating: nil, count: batch.count)
        var pending: [Int] = []
        for (index, member) in members.enumerated() {
            guard case .response(let response) = member.input else {
                // A lifecycle event runs no handler: the pipeline itself ends or replaces the notification. A follow-up's
                // handler is the one that scheduled it, known once its notification is loaded.
                pending.append(index)
                continue
            }
            let category = response.event.data.notification.request.content.categoryIdentifier
            // A response without a category (a notification that has none) is no typo: only a named one is counted.
            if !category.isEmpty, registry.categories[category] == nil, unregisteredCategories.count(category) {
                member.log.log(.warning, "\(UnregisteredCategories.warning)")
            }
            switch registry.route(response.event.data) {
            case .ignored(let why):
                // Debug, as a handled response is: `responder_inputs_total{outcome="ignored"}` counts these, and a
                // line per event at info would let any producer write to the log at its own rate.
                member.log.log(.debug, "response not routed", ["outcome": "ignored", "why": "\(why)"])
                outcomes[index] = .completed(outputs: [], disposition: .ignored)
            case .handler(let receiver):
                receivers[index] = receiver
                pending.append(index)
            }
        }
        let batch = Batch(members: members, receivers: receivers)
        let stragglers = await handleRounds(
            of: batch, pending, into: &outcomes, concurrency: concurrency, holdingBack: holds, on: executor,
            patience: patience)
        var slow = Set<Int>()
        let slowChains = stragglers.map { straggler in
            slow.formUnion(straggler.chain)
            return SlowChain(positions: straggler.chain) { [self] in
                let handled = await straggler.handlings()
                var outcomes = [ResponseOutcome?](repeating: nil, count: members.count)
                _ = await handleRounds(
                    of: batch, straggler.chain, into: &outcomes, concurrency: 1, holdingBack: holds, on: executor,
                    patience: nil, handled: handled)
                return straggler.chain.map { report(outcomes[$0], of: $0, in: batch) }
            }
        }
        return BatchOutcomes(
            outcomes: members.indices.map { index in slow.contains(index) ? nil : report(outcomes[index], of: index, in: batch) },
            slowChains: slowChains)
    }

    /// Logs `outcome`, the outcome of the batch's event at `index`, counts it and ends the event's span; nil (held
    /// back: handled again later, in a span of its own) only ends the span.
    private func report(_ outcome: ResponseOutcome?, of index: Int, in batch: Batch) -> ResponseOutcome? {
        let member = batch.members[index]
        guard let outcome else {
            member.span?.end()
            return nil
        }
        if batch.receivers[index] != nil || member.input.responseEvent == nil {
            member.log.log(outcome.logLevel, outcome.logMessage, outcome.logMetadata)
        }
        metrics.record(outcome)
        member.span?.end()
        return outcome
    }

    /// Handles the batch's `pending` events in rounds (a load, the handlers, a commit) until each has an outcome in
    /// `outcomes` or is held back, and returns the chains the rounds stopped waiting for after `patience`. The
    /// first round takes the handlings of `handled`, when given, instead of a load and the handlers: a slow chain's,
    /// done by the time it settles.
    private func handleRounds(
        of batch: Batch, _ pending: [Int], into outcomes: inout [ResponseOutcome?], concurrency: Int,
        holdingBack holds: (@Sendable (ResponseOutcome) -> Bool)?, on executor: (any TaskExecutor)?,
        patience: Duration?, handled: [(Int, Handling)]? = nil
    ) async -> [Straggler] {
        let members = batch.members
        var pending = pending
        var handled = handled
        var stragglers: [Straggler] = []
        var conflicts = [Int](repeating: 0, count: members.count)
        // The first event of each notification whose outcome holds back the notification's later ones.
        var holding: [String: Int] = [:]
        var committed: Set<Int> = []
        while !pending.isEmpty {
            var handlings = [Handling?](repeating: nil, count: members.count)
            if let given = handled {
                for (index, handling) in given { handlings[index] = handling }
                handled = nil
            } else {
                var snapshots = [Result<StateSnapshot, any Error>?](repeating: nil, count: members.count)
                for (index, snapshot) in zip(pending, await load(pending.map { members[$0].input })) {
                    snapshots[index] = snapshot
                }
                let round = Round(members: members, receivers: batch.receivers, pending: pending, snapshots: snapshots)
                let run = await handleChains(
                    of: round, concurrency: concurrency, holdingBack: holds, on: executor, patience: patience)
                handlings = run.handlings
                if !run.stragglers.isEmpty {
                    stragglers += run.stragglers
                    let slow = Set(run.stragglers.flatMap(\.chain))
                    pending.removeAll { slow.contains($0) }
                }
            }
            var committing: [(index: Int, commit: StateCommit)] = []
            var next: [Int] = []
            for index in pending {
                switch handlings[index]! {
                case .done(let outcome): outcomes[index] = outcome
                case .commit(let commit): committing.append((index, commit))
                case .later: next.append(index)
                case .held: break
                }
            }
            let results = await commit(committing.map(\.commit), spans: committing.map { members[$0.index].span })
            // Notifications whose commit met an unavailable store in this round: their later commits of the round
            // come back as version conflicts (the store writes nothing after a commit of the same notification that
            // was not committed), which are no conflicts with another writer. Counted as such they would use up the
            // conflict retries of a notification with many events in a batch, round after round, and fail them.
            var unavailable: [String: ResponseOutcome] = [:]
            for ((index, commit), result) in zip(committing, results) {
                let member = members[index]
                if case .success(.versionConflict) = result, let outcome = unavailable[member.input.requestIdentifier] {
                    outcomes[index] = outcome
                    continue
                }
                switch result {
                case .success(let result):
                    storeFailures.worked()
                    switch result {
                    case .committed:
                        committed.insert(index)
                        try? configuration.stepReached?(.afterCommit)
                        let outputs = commit.inboxEntry.outputs
                        outcomes[index] = .completed(outputs: outputs, disposition: outputs.isEmpty ? .noUpdate : .updated)
                    case .alreadyProcessed(let outputs):
                        outcomes[index] = .completed(outputs: outputs, disposition: .deduplicated)
                    case .idReused:
                        outcomes[index] = Self.idReused
                    case .versionConflict:
                        metrics.stateConflicts.increment()
                        member.log.log(.debug, "the notification changed meanwhile; handling the response again")
                        conflicts[index] += 1
                        if conflicts[index] > configuration.maxConflictRetries {
                            outcomes[index] = .failed(
                                StateConflictError(attempts: configuration.maxConflictRetries + 1), retryable: true)
                        } else {
                            next.append(index)
                        }
                    }
                case .failure(let error):
                    let outcome = storeFailure(error, of: member.input)
                    outcomes[index] = outcome
                    if case .storeUnavailable = outcome { unavailable[member.input.requestIdentifier] = outcome }
                }
            }
            if let holds {
                for index in pending where holding[members[index].input.requestIdentifier] == nil {
                    if let outcome = outcomes[index], holds(outcome) { holding[members[index].input.requestIdentifier] = index }
                }
                // The later events of a held notification are left unhandled, whatever this round made of them,
                // unless their commit went through (a store that breaks no chain after a failed commit).
                next.removeAll { index in holding[members[index].input.requestIdentifier].map { $0 < index } ?? false }
                for index in pending where !committed.contains(index) {
                    if let first = holding[members[index].input.requestIdentifier], first < index { outcomes[index] = nil }
                }
            }
            pending = next.sorted()
        }
        return stragglers
    }

    /// One event of a batch with what its handling needs throughout: a class, so that the round, its lanes and the
    /// handlers share one instead of copying the decoded input and its many references at every step.
    final class BatchMember: Sendable {
        let input: DecodedInput
        let log: ResponseLog
        /// The event's `handle` span, when the pipeline has a tracer.
        let span: (any Span)?

        init(input: DecodedInput, log: ResponseLog, span: (any Span)?) {
            self.input = input
            self.log = log
            self.span = span
        }
    }

    /// A batch's events and their routes, shared by its rounds and its slow chains.
    struct Batch: Sendable {
        var members: [BatchMember]
        var receivers: [Route.Receiver?]
    }

    /// What one round of a batch (a load, the handlers, a commit) works on.
    struct Round: Sendable {
        var members: [BatchMember]
        var receivers: [Route.Receiver?]
        /// The members handled in this round, in arrival order.
        var pending: [Int]
        /// The load of each pending member, by batch position (nil for the others).
        var snapshots: [Result<StateSnapshot, any Error>?]
    }

    /// How the handlers left one event of a round.
    enum Handling: Sendable {
        /// Its outcome is known without a commit.
        case done(ResponseOutcome)
        /// Its effects are to be committed.
        case commit(StateCommit)
        /// It repeats an earlier event of its notification in the round: it is handled in the next round, after that
        /// one's commit, so a redelivery in the same batch runs no handler twice.
        case later
        /// An earlier event of its notification has an outcome that holds the notification's later events back.
        case held
    }

    /// The store's snapshot for each input, in order.
    private func load(_ inputs: [DecodedInput]) async -> [Result<StateSnapshot, any Error>] {
        let loads = inputs.map { StateLoad(requestIdentifier: $0.requestIdentifier, source: $0.source, eventID: $0.id) }
        do {
            let snapshots = try await store.load(loads)
            precondition(snapshots.count == loads.count, "a store gives one snapshot per load")
            return snapshots
        } catch {
            return loads.map { _ in .failure(error) }
        }
    }

    /// The store's result for each commit, each in a `commit` span under its event's span.
    private func commit(_ commits: [StateCommit], spans: [(any Span)?]) async -> [Result<CommitResult, any Error>] {
        guard !commits.isEmpty else { return [] }
        let commitSpans = spans.map { span in span.flatMap { startSpan("commit", under: $0.context) } }
        let results: [Result<CommitResult, any Error>]
        do {
            results = try await store.commit(commits)
            precondition(results.count == commits.count, "a store gives one result per commit")
        } catch {
            results = commits.map { _ in .failure(error) }
        }
        for (span, result) in zip(commitSpans, results) {
            // A failed span carries no error description: it may quote what the store saw.
            if case .failure = result { span?.setStatus(SpanStatus(code: .error)) }
            span?.end()
        }
        return results
    }

    /// Runs the chains of the round's notifications on at most `concurrency` lanes (``ChainLanes``); the handling of
    /// each pending member, by batch position, and the chains left running after `patience`.
    private func handleChains(
        of round: Round, concurrency: Int, holdingBack holds: (@Sendable (ResponseOutcome) -> Bool)?,
        on executor: (any TaskExecutor)?, patience: Duration?
    ) async -> (handlings: [Handling?], stragglers: [Straggler]) {
        var chains: [[Int]] = []
        var chainOf: [String: Int] = [:]
        for index in round.pending {
            let key = round.members[index].input.requestIdentifier
            if let chain = chainOf[key] {
                chains[chain].append(index)
            } else {
                chainOf[key] = chains.count
                chains.append([index])
            }
        }
        let lanes = ChainLanes(
            chains: chains, positions: round.members.count, executor: executor, deadlines: handlerDeadlines,
            abandoned: abandonedCalls)
        return await lanes.run(concurrency: concurrency, patience: patience) { [self] cursor, lane in
            await advance(&cursor, of: round, on: lane, holdingBack: holds)
        } failed: { [self] timedOut in
            handlerFailure(timedOut.failure, of: round.members[timedOut.call.index].input.id)
        }
    }

    /// Handles the events of one notification in the round from `cursor` on, in order, each on the state the one
    /// before it left, up to one whose outcome `holds` accepts.
    private func advance(
        _ cursor: inout ChainLanes.Cursor, of round: Round, on lane: ChainLanes.Lane,
        holdingBack holds: (@Sendable (ResponseOutcome) -> Bool)?
    ) async {
        while cursor.position < cursor.chain.count {
            if let holds, let (_, last) = cursor.handled.last, case .done(let outcome) = last, holds(outcome) {
                while cursor.position < cursor.chain.count { cursor.record(.held) }
                return
            }
            let index = cursor.chain[cursor.position]
            let member = round.members[index]
            let input = member.input
            // A chain of one event repeats nothing: its key is not hashed.
            guard cursor.chain.count == 1 || cursor.seen.insert(InboxKey(source: input.source, eventID: input.id)).inserted
            else {
                cursor.record(.later)
                continue
            }
            switch round.snapshots[index]! {
            case .failure(let error):
                cursor.record(.done(storeFailure(error, of: input)))
            case .success(.processed(let outputs)):
                cursor.record(.done(.completed(outputs: outputs, disposition: .deduplicated)))
            case .success(.idReused):
                if case .followUp(let followUp) = input, FollowUp.isUniquePerSource(followUp.id) {
                    // A follow-up's id is unique per source and the worker routes it by its notification, so one whose
                    // id the inbox holds for another notification was published by someone else: ignored as every
                    // forged follow-up is, not dead-lettered with advice for a producer it does not come from. (A
                    // producer that reused an event's source and id once the inbox forgot it, while it still holds
                    // the first event's follow-up, gets the same id for the second's: ignored too, its follow-up
                    // never runs.) Ids of the earlier form collided for real, and are dead-lettered as before.
                    cursor.record(ignoredFollowUp(member, why: "its id was handled as another notification's follow-up"))
                } else {
                    cursor.record(.done(Self.idReused))
                }
            case .success(.unprocessed(let stored)):
                let known = cursor.current ?? stored
                let call = ChainLanes.Call(lane: lane, cursor: cursor, known: known)
                let handling =
                    switch input {
                    case .response(let response):
                        await handle(member, response, by: round.receivers[index]!, on: known, in: call)
                    case .lifecycle(let lifecycle):
                        handle(member, lifecycle, on: known)
                    case .followUp(let followUp):
                        await handle(member, followUp, on: known, in: call)
                    }
                cursor.current = Self.record(after: handling, on: known)
                cursor.record(handling)
            }
        }
    }

    /// The notification as the store will hold it once `handling` is committed, `stored` before it.
    private static func record(after handling: Handling, on stored: NotificationRecord?) -> NotificationRecord? {
        guard case .commit(let commit) = handling, var changed = commit.notification else { return stored }
        changed.version += 1
        return changed
    }

    /// The outcome of an event whose load or commit failed with `error`: an unavailable store pauses, a refused value
    /// dead-letters the event, and another error fails it (retryably) unless the streak of such failures
    /// (``StoreFailureStreak``) says the store is unavailable after all.
    private func storeFailure(_ error: any Error, of input: DecodedInput) -> ResponseOutcome {
        switch error {
        case let unavailable as StateStoreUnavailable:
            return .storeUnavailable(unavailable)
        case let refused as StateStoreRefusedValue:
            return .deadLetter(reason: .invalidField, detail: "the state store refused a value of this event: \(refused)")
        default:
            if let unavailable = storeFailures.failed(input.id, error) { return .storeUnavailable(unavailable) }
            return .failed(error, retryable: true)
        }
    }
}
