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
        _ receiver: Route.Receiver, for input: DecodedResponse, on record: NotificationRecord, log: ResponseLog
    ) async throws -> HandledResponse {
        let response = input.event.data
        switch receiver {
        case .delegate(let delegate):
            try await call(delegate, for: input, forwarded: false, log: log)
            return HandledResponse(record: record, outputs: [])
        case .extension(let handler):
            let clock = ContinuousClock()
            let start = clock.now
            let invocation = AnyContentExtension.Invocation(
                log: log, actions: record.actions, state: record.handlerStates[handler.name])
            let result = try await withHandlerTimeout(handler.timeout, of: handler.name, tier: metrics.extensionTimeouts) {
                try await handler.didReceive(response, invocation)
            }
            metrics.extensionDuration.record(duration: clock.now - start)
            var updated = record
            updated.handlerStates[handler.name] = result.state
            var outputs: [OutboundMessage] = []
            if let actions = result.newActions {
                updated.actions = actions
                outputs.append(
                    configuration.actionSetUpdate(
                        causedBy: input, responseOption: result.responseOption, actions: actions,
                        version: record.version + 1, to: outputExchange))
            }
            if result.responseOption == .dismissAndForwardAction {
                if let delegate = registry.delegate {
                    try await call(delegate, for: input, forwarded: true, log: log)
                } else {
                    log.log(.debug, "the extension forwarded the response, but no app delegate is registered")
                }
            }
            return HandledResponse(record: updated, outputs: outputs)
        }
    }

    private func call(
        _ delegate: any UserNotificationCenterDelegate, for input: DecodedResponse, forwarded: Bool, log: ResponseLog
    ) async throws {
        let context = DelegateContext(isForwarded: forwarded, log: log)
        let clock = ContinuousClock()
        let start = clock.now
        let response = input.event.data
        try await withHandlerTimeout(registry.delegateTimeout, of: HandlerTimeout.delegate, tier: metrics.delegateTimeouts) {
            try await delegate.didReceive(response, context: context)
        }
        metrics.delegateDuration.record(duration: clock.now - start)
    }
}

extension ResponsePipeline {
    /// Runs a handler's call within its limit (`timeout`, else the pipeline's), counting a timeout on `timeouts`; its
    /// errors, the timeout's included, come out as a ``HandlerRunError``. A call that returns ends the handler's
    /// streak of ``DependencyUnavailable`` failures: another error says nothing about the dependency.
    private func withHandlerTimeout<Value: Sendable>(
        _ timeout: Duration?, of handler: String, tier timeouts: Counter,
        _ call: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let limit = timeout ?? configuration.handlerTimeout
        do {
            let value = try await withTimeLimit(limit, deadlines: handlerDeadlines, timedOut: {
                timeouts.increment()
                return HandlerTimeout(handler: handler, limit: limit)
            }, call)
            dependencyFailures.worked(handler)
            return value
        } catch {
            throw HandlerRunError(underlying: error, handler: handler)
        }
    }
}

/// An error thrown by a handler, as opposed to one of the store: the handler decides whether it is retryable.
struct HandlerRunError: Error {
    var underlying: any Error
    /// The extension's name, or `delegate`.
    var handler: String
}
