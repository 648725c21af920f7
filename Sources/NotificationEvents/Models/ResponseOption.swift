/// How a content extension answers a response, as `UNNotificationContentExtensionResponseOption`.
public enum ResponseOption: String, Sendable, Hashable, Codable, CaseIterable, ContractEnum {
    /// Keep the notification on screen.
    case doNotDismiss
    /// Dismiss the notification.
    case dismiss
    /// Dismiss the notification and hand the response on to the app.
    case dismissAndForwardAction

    /// Reads the raw value; an unknown one is refused with the list of allowed values.
    public init(from decoder: any Decoder) throws { try self.init(contractFrom: decoder) }
}
