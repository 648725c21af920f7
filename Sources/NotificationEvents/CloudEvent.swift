import Foundation

/// A CloudEvents 1.0 event in structured JSON mode, carrying `Payload` as its `data`.
public struct CloudEvent<Payload: Sendable & Hashable & Codable>: Sendable, Hashable, Codable {
    /// The only CloudEvents version this contract speaks.
    public static var specVersion: String { "1.0" }

    public var specversion: String
    public var id: String
    public var source: String
    public var type: String
    public var time: Date?
    /// For notification events, the notification request identifier.
    public var subject: String?
    public var datacontenttype: String?
    public var data: Payload

    public init(
        id: String, source: String, type: String, time: Date? = nil, subject: String? = nil,
        datacontenttype: String? = "application/json", data: Payload
    ) {
        self.specversion = Self.specVersion
        self.id = id
        self.source = source
        self.type = type
        self.time = time
        self.subject = subject
        self.datacontenttype = datacontenttype
        self.data = data
    }
}

/// The input event: `type` is ``EventType/notificationResponse``.
public typealias NotificationResponseEvent = CloudEvent<NotificationResponse>
/// The output event: `type` is ``EventType/actionSetUpdated``.
public typealias ActionSetUpdateEvent = CloudEvent<ActionSetUpdate>

/// The `type` attribute of the events of this contract.
public enum EventType {
    public static let notificationResponse = "notification.response.v1"
    public static let actionSetUpdated = "notification.actions.updated.v1"
}
