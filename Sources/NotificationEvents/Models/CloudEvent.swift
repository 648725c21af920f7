import Foundation

/// A CloudEvents 1.0 event in structured JSON mode, carrying `Payload` as its `data`.
public struct CloudEvent<Payload: Sendable & Hashable & Codable>: Sendable, Hashable, Codable {
    /// The only CloudEvents version this contract speaks.
    public static var specVersion: String { "1.0" }

    /// The CloudEvents version; ``specVersion`` for every event of this contract.
    public var specversion: String
    /// Unique per event from one source; never empty. An output's id derives from its input's id: ``id(causedBy:)``
    /// for an action-set update, ``commandID(causedBy:)`` for a dismissal or removal.
    public var id: String
    /// Who sent the event, a URI-reference; never empty.
    public var source: String
    /// One of ``EventType``.
    public var type: String
    /// When the occurrence happened.
    public var time: Date?
    /// For notification events, the notification request identifier.
    public var subject: String?
    /// The media type of `data`; absent means `application/json`.
    public var datacontenttype: String?
    /// The event's payload.
    public var data: Payload

    /// A CloudEvents 1.0 event; `specversion` is always ``specVersion``.
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

extension CloudEvent: ContractObject {
    private enum CodingKeys: String, CodingKey {
        case specversion, id, source, type, time, subject, datacontenttype, data
    }

    /// Reads the envelope's attributes; `id` and `source` must not be empty, and `id` holds no U+0000. Which `specversion` and `type`
    /// are accepted is for ``EventCodec`` to say, per event.
    public init(from decoder: any Decoder) throws {
        try self.init(fields: decoder.container(keyedBy: CodingKeys.self))
    }

    static func read(from tape: JSONTape, at node: Int) throws -> Self {
        try Self(fields: TapeObject(tape: tape, objectAt: node))
    }

    private init(fields container: some ContractFields<CodingKeys>) throws {
        specversion = try container.decode(String.self, forKey: .specversion)
        id = try container.decodeIdentifier(.id)
        source = try container.decodeNonEmpty(.source)
        type = try container.decode(String.self, forKey: .type)
        time = try container.decodeIfPresent(Date.self, forKey: .time)
        subject = try container.decodeIfPresent(String.self, forKey: .subject)
        datacontenttype = try container.decodeIfPresent(String.self, forKey: .datacontenttype)
        data = try container.decode(Payload.self, forKey: .data)
    }
}

/// The input event: `type` is ``EventType/notificationResponse``.
public typealias NotificationResponseEvent = CloudEvent<NotificationResponse>
/// The input event that ends or replaces a notification: `type` is ``EventType/notificationLifecycle``.
public typealias NotificationLifecycleEvent = CloudEvent<NotificationLifecycleChange>
/// The output event: `type` is ``EventType/actionSetUpdated``.
public typealias ActionSetUpdateEvent = CloudEvent<ActionSetUpdate>
/// The output that tells the device to dismiss a notification: `type` is ``EventType/notificationDismissed``.
public typealias NotificationDismissedEvent = CloudEvent<DeviceCommand<Dismissal>>
/// The output that tells the device to remove a delivered notification: `type` is ``EventType/notificationRemoved``.
public typealias NotificationRemovedEvent = CloudEvent<DeviceCommand<Removal>>
