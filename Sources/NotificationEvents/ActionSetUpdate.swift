/// The output event's data: a notification's new action set, for the push sender to apply.
public struct ActionSetUpdate: Sendable, Hashable, Codable {
    public var requestIdentifier: String
    public var categoryIdentifier: String
    /// The id of the input event that caused this update.
    public var causationId: String
    public var responseOption: ResponseOption
    /// The whole new action set, in display order.
    public var actions: [NotificationAction]

    public init(
        requestIdentifier: String, categoryIdentifier: String, causationId: String, responseOption: ResponseOption,
        actions: [NotificationAction]
    ) {
        self.requestIdentifier = requestIdentifier
        self.categoryIdentifier = categoryIdentifier
        self.causationId = causationId
        self.responseOption = responseOption
        self.actions = actions
    }
}
