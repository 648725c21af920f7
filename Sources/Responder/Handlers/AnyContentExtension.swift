import Foundation
import Logging
import NotificationEvents

/// A ``NotificationContentExtension`` with its state type erased: it takes and gives the state as JSON bytes,
/// as the state store keeps it.
struct AnyContentExtension: Sendable {
    /// What one run of an extension produced.
    struct Result: Sendable {
        var responseOption: ResponseOption
        /// The new action set and the messages to send, as the extension left them in its context.
        var requests: HandlerRequests
        /// The extension's state after the run, as JSON.
        var state: [UInt8]
    }

    let name: String
    let categoryIdentifiers: Set<String>
    /// The limit it was registered with, when not the pipeline's ``PipelineConfiguration/handlerTimeout``.
    var timeout: Duration?
    private let run: @Sendable (NotificationResponse, Invocation) async throws -> Result
    private let runFollowUp: @Sendable (FollowUp, Invocation) async throws -> Result

    /// The inputs of one run besides the response.
    struct Invocation: Sendable {
        var log: ResponseLog
        var actions: [NotificationAction]
        /// The stored state, or nil when the extension has none for this notification yet.
        var state: [UInt8]?
    }

    init<Extension: NotificationContentExtension>(_ handler: Extension, timeout: Duration? = nil) {
        name = handler.name
        self.timeout = timeout
        categoryIdentifiers = handler.categoryIdentifiers
        run = { response, invocation in
            var context = ExtensionContext(
                log: invocation.log, state: try Self.decodeState(invocation.state, of: handler),
                requests: HandlerRequests(notificationActions: invocation.actions))
            let option = try await handler.didReceive(response, context: &context)
            return Result(responseOption: option, requests: context.requests, state: EventCodec.encode(context.state))
        }
        runFollowUp = { followUp, invocation in
            var context = ExtensionContext(
                log: invocation.log, state: try Self.decodeState(invocation.state, of: handler),
                requests: HandlerRequests(notificationActions: invocation.actions))
            try await handler.didReceiveFollowUp(followUp, context: &context)
            // A follow-up has no response to answer: the notification stays as it is on the device.
            return Result(responseOption: .doNotDismiss, requests: context.requests, state: EventCodec.encode(context.state))
        }
    }

    func didReceive(_ response: NotificationResponse, _ invocation: Invocation) async throws -> Result {
        try await run(response, invocation)
    }

    func didReceiveFollowUp(_ followUp: FollowUp, _ invocation: Invocation) async throws -> Result {
        try await runFollowUp(followUp, invocation)
    }

    /// A stored state that no longer decodes will not decode on a retry either: the failure is permanent.
    private static func decodeState<Extension: NotificationContentExtension>(
        _ bytes: [UInt8]?, of handler: Extension
    ) throws -> Extension.State {
        guard let bytes else { return handler.initialState }
        do {
            return try EventCodec.decodeStored(Extension.State.self, from: bytes)
        } catch {
            throw PermanentFailure("the stored state of extension \"\(handler.name)\" does not decode: \(error)")
        }
    }
}
