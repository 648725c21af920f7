import NotificationEvents
import Responder

extension InMemoryStateStore {
    /// The state `handler` keeps for the notification, or nil when it has none stored yet.
    package func state<Extension: NotificationContentExtension>(
        of handler: Extension, for requestIdentifier: String
    ) async throws -> Extension.State? {
        guard let bytes = notification(requestIdentifier)?.handlerStates[handler.name] else { return nil }
        return try EventCodec.decodeStored(Extension.State.self, from: bytes)
    }
}
