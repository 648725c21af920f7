/// The output event's data: a notification's new action set, for the push sender to apply.
public struct ActionSetUpdate: Sendable, Hashable, Codable {
    /// The notification whose actions change; never empty.
    public var requestIdentifier: String
    /// The notification's category; may be empty, as in the input.
    public var categoryIdentifier: String
    /// The id of the input event that caused this update; never empty.
    public var causationId: String
    /// What the notification does on screen.
    public var responseOption: ResponseOption
    /// The whole new action set, in display order; identifiers are unique.
    public var actions: [NotificationAction]
    /// The notification's version once this response was handled, from 1: it grows with every response that
    /// changes the notification. Updates can arrive out of order (a redelivered input's update is published again
    /// after later ones; several workers publish side by side), so a push sender applies an update only when its
    /// version is above the last one it applied to that notification.
    public var version: Int64

    /// An update of `requestIdentifier`'s actions to `actions`, caused by the input event `causationId`, which
    /// left the notification at `version`.
    public init(
        requestIdentifier: String, categoryIdentifier: String, causationId: String, responseOption: ResponseOption,
        actions: [NotificationAction], version: Int64
    ) {
        self.requestIdentifier = requestIdentifier
        self.categoryIdentifier = categoryIdentifier
        self.causationId = causationId
        self.responseOption = responseOption
        self.actions = actions
        self.version = version
    }

    private enum CodingKeys: String, CodingKey {
        case requestIdentifier, categoryIdentifier, causationId, responseOption, actions, version
    }

    /// Reads an update; all fields are required, the identifiers of request and cause must not be empty, action
    /// identifiers are unique and the version is positive.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        requestIdentifier = try container.decodeNonEmpty(.requestIdentifier)
        categoryIdentifier = try container.decode(String.self, forKey: .categoryIdentifier)
        causationId = try container.decodeNonEmpty(.causationId)
        responseOption = try container.decode(ResponseOption.self, forKey: .responseOption)
        actions = try container.decodeActionSet(forKey: .actions, required: true)
        version = try container.decode(Int64.self, forKey: .version, atLeast: 1)
    }
}
