import Logging
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
            let result: AnyContentExtension.Result
            do {
                result = try await handler.didReceive(response, invocation)
            } catch {
                throw HandlerRunError(underlying: error)
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
            // After the update, if any: the device shows the new buttons' state before it lets the notification go,
            // and a push sender that applies both (same version, same input) in arrival order ends dismissed.
            if result.responseOption != .doNotDismiss {
                outputs.append(
                    configuration.deviceCommand(
                        Dismissal.self, causedBy: input, version: record.version + 1, to: outputExchange))
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
        do {
            try await delegate.didReceive(input.event.data, context: context)
        } catch {
            throw HandlerRunError(underlying: error)
        }
        metrics.delegateDuration.record(duration: clock.now - start)
    }
}

/// An error thrown by a handler, as opposed to one of the store: the handler decides whether it is retryable.
struct HandlerRunError: Error {
    var underlying: any Error
}
