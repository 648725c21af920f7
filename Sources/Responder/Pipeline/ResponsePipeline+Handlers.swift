import Logging
import Metrics
import NotificationEvents

extension ResponsePipeline {
    /// What running a response's handlers did to its notification.
    struct HandledResponse {
        var record: NotificationRecord
        var outputs: [OutboundMessage]
    }

    /// Runs the handlers a response is routed to against `record`, without storing anything.
    func run(
        _ receiver: Route.Receiver, for input: DecodedResponse, on record: NotificationRecord, log: ResponseLog,
        in lane: ChainLanes.Call
    ) async throws -> HandledResponse {
        var updated = record
        var requests = HandlerRequests(notificationActions: record.actions)
        var responseOption = ResponseOption.doNotDismiss
        switch receiver {
        case .delegate(let delegate):
            try await call(delegate, for: input, forwarded: false, requests: &requests, log: log, in: lane)
            requests.claimFollowUps(for: HandlerTimeout.delegate)
        case .extension(let handler):
            let response = input.event.data
            let result = try await call(handler, on: record, log: log, in: lane) { try await $0.didReceive(response, $1) }
            updated.handlerStates[handler.name] = result.state
            requests = result.requests
            requests.claimFollowUps(for: handler.name)
            responseOption = result.responseOption
            if responseOption == .dismissAndForwardAction {
                if let delegate = registry.delegate {
                    try await call(delegate, for: input, forwarded: true, requests: &requests, log: log, in: lane)
                    requests.claimFollowUps(for: HandlerTimeout.delegate)
                } else {
                    log.log(.debug, "the extension forwarded the response, but no app delegate is registered")
                }
            }
        }
        return try handled(requests, responseOption: responseOption, leaving: updated, on: record, causedBy: input)
    }

    /// Calls one of `handler`'s entry points as `body` says, on `record`'s actions and the extension's state there,
    /// within its time limit in `lane`, and times it.
    func call(
        _ handler: AnyContentExtension, on record: NotificationRecord, log: ResponseLog, in lane: ChainLanes.Call,
        _ body: (AnyContentExtension, AnyContentExtension.Invocation) async throws -> AnyContentExtension.Result
    ) async throws -> AnyContentExtension.Result {
        let clock = ContinuousClock()
        let start = clock.now
        let invocation = AnyContentExtension.Invocation(
            log: log, actions: record.actions, state: record.handlerStates[handler.name])
        let result = try await withHandlerTimeout(
            handler.timeout, of: handler.name, tier: metrics.extensionTimeouts, in: lane
        ) {
            try await body(handler, invocation)
        }
        metrics.extensionDuration.record(duration: clock.now - start)
        return result
    }

    /// What the handlers' `requests` (and the extension's `responseOption`) make of `record`, which the handlers
    /// left as `updated` (their states): the record to store and the outputs, follow-ups included.
    func handled(
        _ requests: HandlerRequests, responseOption: ResponseOption, leaving updated: NotificationRecord,
        on record: NotificationRecord, causedBy cause: some OutputCause
    ) throws -> HandledResponse {
        var updated = updated
        var responseOption = responseOption
        if responseOption == .doNotDismiss, requests.dismissesNotification { responseOption = .dismiss }
        if requests.removesNotification {
            updated = NotificationRecord(
                requestIdentifier: record.requestIdentifier, categoryIdentifier: record.categoryIdentifier, actions: [],
                version: record.version, notificationDate: record.notificationDate, isRemoved: true)
        } else {
            updated.actions = requests.notificationActions
        }
        if let refusal = requests.followUpRefusal {
            throw HandlerRunError(handler: nil, underlying: PermanentFailure(refusal))
        }
        var outputs = try outputs(of: requests, responseOption: responseOption, for: cause, on: record)
        // A removed notification keeps no follow-ups: they would be dropped when they came.
        if !requests.removesNotification, !requests.followUps.isEmpty {
            var pending = try updated.pendingFollowUps()
            guard pending.count + requests.followUps.count <= FollowUp.maxPending else {
                throw HandlerRunError(
                    handler: nil,
                    underlying: PermanentFailure(
                        "the handlers scheduled \(requests.followUps.count) follow-ups for a notification that has "
                            + "\(pending.count) pending, more than the \(FollowUp.maxPending) it may keep"))
            }
            for (index, request) in requests.followUps.enumerated() {
                let followUp = FollowUp(
                    id: FollowUp.id(source: cause.causationSource, causedBy: cause.causationID, number: index + 1),
                    name: request.name, payload: request.payload, dueDate: request.dueDate)
                // Every request is claimed by the handler whose call made it once that call returns.
                pending.append(
                    PendingFollowUp(
                        followUp: followUp, handler: request.handler!, notificationDate: updated.notificationDate))
                outputs.append(
                    configuration.followUpMessage(
                        followUp.id, of: cause.requestIdentifier, to: configuration.followUpLadder.step(for: request.delay),
                        causedBy: cause))
            }
            updated.setPendingFollowUps(pending)
        }
        return HandledResponse(record: updated, outputs: outputs)
    }

    /// The outputs of what a response's handlers asked for, in a fixed order: the action-set update and the dismissal,
    /// or instead the removal, then the messages sent, each at the version the commit gives the notification.
    private func outputs(
        of requests: HandlerRequests, responseOption: ResponseOption, for input: some OutputCause,
        on record: NotificationRecord
    ) throws -> [OutboundMessage] {
        let version = record.version + 1
        var outputs: [OutboundMessage] = []
        if requests.removesNotification {
            // The device drops the notification: new buttons or a dismissal would say nothing more.
            outputs.append(configuration.deviceCommand(Removal.self, causedBy: input, version: version, to: outputExchange))
        } else if requests.didSetNotificationActions {
            outputs.append(
                configuration.actionSetUpdate(
                    causedBy: input, responseOption: responseOption, actions: requests.notificationActions,
                    version: version, to: outputExchange))
        }
        // After the update, if any: the device shows the new buttons' state before it lets the notification go,
        // and a push sender that applies both (same version, same input) in arrival order ends dismissed.
        if responseOption != .doNotDismiss, !requests.removesNotification {
            outputs.append(configuration.deviceCommand(Dismissal.self, causedBy: input, version: version, to: outputExchange))
        }
        for (index, message) in requests.sentMessages.enumerated() {
            guard registry.destinations[message.destination.name] == message.destination else {
                throw HandlerRunError(
                    handler: nil,
                    underlying: PermanentFailure(
                        "a handler sent a message to the destination \"\(message.destination.name)\" as "
                            + "\(message.destination.exchange)/\(message.destination.routingKey), which the registration "
                            + "does not declare: declare it with HandlerRegistry.declare(_:) and send to that value"))
            }
            outputs.append(configuration.sentMessage(message, number: index + 1, causedBy: input))
        }
        return outputs
    }

    private func call(
        _ delegate: any UserNotificationCenterDelegate, for input: DecodedResponse, forwarded: Bool,
        requests: inout HandlerRequests, log: ResponseLog, in lane: ChainLanes.Call
    ) async throws {
        let response = input.event.data
        try await call(delegate, forwarded: forwarded, requests: &requests, log: log, in: lane) { delegate, context in
            try await delegate.didReceive(response, context: &context)
        }
    }

    /// Calls the app tier with a context holding `requests` as `body` says, within its time limit in `lane`, and
    /// takes back what it asked for.
    func call(
        _ delegate: any UserNotificationCenterDelegate, forwarded: Bool, requests: inout HandlerRequests,
        log: ResponseLog, in lane: ChainLanes.Call,
        _ body: (any UserNotificationCenterDelegate, inout DelegateContext) async throws -> Void
    ) async throws {
        var context = DelegateContext(isForwarded: forwarded, log: log, requests: requests)
        let clock = ContinuousClock()
        let start = clock.now
        try await withHandlerTimeout(
            registry.delegateTimeout, of: HandlerTimeout.delegate, tier: metrics.delegateTimeouts, in: lane
        ) {
            try await body(delegate, &context)
        }
        metrics.delegateDuration.record(duration: clock.now - start)
        requests = context.requests
    }

    /// Reports the handlers' end to ``PipelineConfiguration/stepReached`` (whose error fails the input as a handler's
    /// would) and says whether what they left must not be committed: a dead letter when one of its outputs cannot be
    /// published, else nil.
    func checkHandled(_ handled: HandledResponse) throws -> Handling? {
        try configuration.stepReached?(.afterHandler)
        guard let problem = unpublishable(handled.outputs) else { return nil }
        return .done(
            .deadLetter(reason: .unpublishable, detail: "an output built for this input cannot be published: \(problem)"))
    }

    /// The outcome of the input `eventID` whose handlers threw `error`: as retryable as the handler says, or, after
    /// a run of ``DependencyUnavailable`` from one handler, a pause.
    func handlerFailure(_ error: any Error, of eventID: String) -> Handling {
        guard let failure = error as? HandlerRunError else { return .done(.failed(error, retryable: true)) }
        // Without a handler, no call was made (too many calls cut off still run): nothing to count against one.
        if let unavailable = failure.underlying as? DependencyUnavailable,
            failure.handler.map({ dependencyFailures.failed($0, eventID) }) ?? true
        {
            return .done(.dependencyUnavailable(unavailable))
        }
        return .done(.failed(failure.underlying, retryable: failure.underlying.isRetryableHandlerError))
    }
}

extension ResponsePipeline {
    /// Runs a handler's call within its limit (`timeout`, else the pipeline's) in the calling lane, counting a timeout
    /// on `timeouts`; its errors come out as a ``HandlerRunError``. Past the limit the lane is abandoned
    /// (``ChainLanes``): the round fails the event with a ``HandlerTimeout`` without waiting, and what the call returns
    /// late is dropped. A call that returns ends the handler's streak of ``DependencyUnavailable`` failures: another
    /// error says nothing about the dependency.
    private func withHandlerTimeout<Value>(
        _ timeout: Duration?, of handler: String, tier timeouts: Counter, in call: ChainLanes.Call,
        _ body: () async throws -> Value
    ) async throws -> Value {
        // Calls cut off that ignored the cancellation pile up behind whatever they wait for: start no more, for a
        // response or a follow-up alike.
        if let unavailable = abandonedCalls.unavailability { throw HandlerRunError(handler: nil, underlying: unavailable) }
        let timeout = HandlerTimeout(handler: handler, limit: timeout ?? configuration.handlerTimeout)
        let lanes = call.lane.lanes
        // An abandoned lane calls no further handler: the round handles the rest of its chain in a fresh lane.
        guard let armed = lanes.arm(call, timeout: timeout, counting: timeouts) else {
            throw HandlerRunError(handler: handler, underlying: timeout)
        }
        let value: Value
        do {
            value = try await body()
        } catch {
            guard lanes.disarm(armed) else { throw HandlerRunError(handler: handler, underlying: timeout) }
            throw HandlerRunError(handler: handler, underlying: error)
        }
        guard lanes.disarm(armed) else { throw HandlerRunError(handler: handler, underlying: timeout) }
        dependencyFailures.worked(handler)
        return value
    }
}

/// An error thrown by a handler, as opposed to one of the store: the handler decides whether it is retryable.
struct HandlerRunError: Error {
    /// The extension's name, or `delegate`; nil when the error is about what the handlers asked for together (a
    /// message to an undeclared destination) rather than one handler's call, or when no call was made (too many calls
    /// cut off still run).
    var handler: String?
    var underlying: any Error
}
