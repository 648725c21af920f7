/// Which command a ``DeviceCommand`` is: the JSON of both is the same, and the event's `type` tells them apart.
public protocol DeviceCommandKind: Sendable {
    /// The event `type` of this command, one of ``EventType``.
    static var eventType: String { get }
    /// What the command's id adds to the id of the input that caused it: `<causationId>/<idSuffix>`.
    static var idSuffix: String { get }
    /// What the device does, in one word: how `responder watch` shows the command.
    static var verb: String { get }
}

/// Every kind of device command the worker publishes: what `responder watch` prints commands from, and what
/// `DeviceCommandKindsTests` holds against the schemas.
public enum DeviceCommandKinds {
    /// Each kind, in the order a handled input's outputs hold them.
    public static let all: [any DeviceCommandKind.Type] = [Dismissal.self, Removal.self]
}

/// The device dismisses the notification, as a content extension answering `.dismiss` or
/// `.dismissAndForwardAction` does on the device the user touched.
public enum Dismissal: DeviceCommandKind {
    public static var eventType: String { EventType.notificationDismissed }
    public static var idSuffix: String { "dismissed" }
    public static var verb: String { "dismiss" }
}

/// The device removes the delivered notification, as `removeDeliveredNotifications(withIdentifiers:)` does.
public enum Removal: DeviceCommandKind {
    public static var eventType: String { EventType.notificationRemoved }
    public static var idSuffix: String { "removed" }
    public static var verb: String { "remove" }
}
