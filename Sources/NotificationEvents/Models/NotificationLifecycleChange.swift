import Foundation

/// The lifecycle event's data: a producer saw a notification request end or be replaced, as
/// `UNUserNotificationCenter` ends and replaces them.
public struct NotificationLifecycleChange: Sendable, Hashable {
    /// What happened to the request.
    public enum Change: Sendable, Hashable {
        /// The request was removed before it was delivered, as `removePendingNotificationRequests(withIdentifiers:)`.
        case removedPending
        /// The delivered notification was removed, as `removeDeliveredNotifications(withIdentifiers:)`.
        case removedDelivered
        /// A request with the same identifier was added again (APNs: a push with the same `apns-collapse-id`), and
        /// its notification replaces the old one.
        case replaced(by: Replacement)
    }

    /// The notification that replaces the old one under the same request identifier.
    public struct Replacement: Sendable, Hashable, Codable, ContractObject {
        /// When the new notification was delivered: the `notification.date` its responses carry.
        public var date: Date
        /// The new notification's category; may be empty, as in a response.
        public var categoryIdentifier: String

        /// The notification delivered at `date` under `categoryIdentifier`.
        public init(date: Date, categoryIdentifier: String) {
            self.date = date
            self.categoryIdentifier = categoryIdentifier
        }

        private enum CodingKeys: String, CodingKey {
            case date, categoryIdentifier
        }

        /// Reads a replacement; both fields are required and the category holds no U+0000, as in a response.
        public init(from decoder: any Decoder) throws {
            try self.init(fields: decoder.container(keyedBy: CodingKeys.self))
        }

        static func read(from tape: JSONTape, at node: Int) throws -> Self {
            try Self(fields: TapeObject(tape: tape, objectAt: node))
        }

        private init(fields container: some ContractFields<CodingKeys>) throws {
            date = try container.decode(Date.self, forKey: .date)
            categoryIdentifier = try container.decodeIdentifier(.categoryIdentifier, mayBeEmpty: true)
        }
    }

    /// The request that ended or was replaced; never empty, no U+0000: the key of the notification's state.
    public var requestIdentifier: String
    /// What happened to it.
    public var change: Change
    /// When it happened.
    public var date: Date
    /// For a removal, the removed notification's category when the producer knows it (may be empty, no U+0000); nil
    /// otherwise, and always for a replacement, whose ``Replacement`` carries the new notification's category. A
    /// worker that never stored the notification publishes its removal under this category, so the push sender's
    /// binding for that category sees it.
    public var categoryIdentifier: String?
    /// For a removal, when the removed notification was delivered (the `notification.date` its responses carry, in the
    /// device's clock) when the producer knows it; nil otherwise, and always for a replacement, whose ``Replacement``
    /// carries the new notification's date. `date` is the producer's clock and says nothing about which delivery was
    /// removed: a worker judges the removal, and the responses that follow it, by this date alone.
    public var notificationDate: Date?

    /// A report that `change` happened to `requestIdentifier` at `date`; for a removal, of a notification of
    /// `categoryIdentifier` delivered at `notificationDate`, when known.
    public init(
        requestIdentifier: String, change: Change, date: Date, categoryIdentifier: String? = nil,
        notificationDate: Date? = nil
    ) {
        self.requestIdentifier = requestIdentifier
        self.change = change
        self.date = date
        self.categoryIdentifier = categoryIdentifier
        self.notificationDate = notificationDate
    }
}

extension NotificationLifecycleChange: Codable, ContractObject {
    private enum CodingKeys: String, CodingKey {
        case requestIdentifier, change, date, replacement, categoryIdentifier, notificationDate
    }

    /// `change` as the JSON spells it; a replacement's notification is a member of its own, `replacement`.
    private enum Kind: String, Codable, ContractEnum {
        case removedPending, removedDelivered, replaced

        init(from decoder: any Decoder) throws { try self.init(contractFrom: decoder) }
    }

    /// Reads a change; `replacement` is required for `replaced` and must be absent (or null) otherwise, and
    /// `categoryIdentifier` and `notificationDate` must be absent (or null) for `replaced`.
    public init(from decoder: any Decoder) throws {
        try self.init(fields: decoder.container(keyedBy: CodingKeys.self))
    }

    static func read(from tape: JSONTape, at node: Int) throws -> Self {
        try Self(fields: TapeObject(tape: tape, objectAt: node))
    }

    private init(fields container: some ContractFields<CodingKeys>) throws {
        requestIdentifier = try container.decodeIdentifier(.requestIdentifier)
        let kind = try container.decode(Kind.self, forKey: .change)
        if kind == .replaced {
            change = .replaced(by: try container.decode(Replacement.self, forKey: .replacement))
        } else {
            guard try container.decodeIfPresent(JSONValue.self, forKey: .replacement) == nil else {
                throw container.violation(.replacement, "must be absent unless change is replaced")
            }
            change = kind == .removedPending ? .removedPending : .removedDelivered
        }
        date = try container.decode(Date.self, forKey: .date)
        notificationDate = try container.decodeIfPresent(Date.self, forKey: .notificationDate)
        if kind == .replaced, notificationDate != nil {
            throw container.violation(
                .notificationDate, "must be absent when change is replaced: the replacement carries its date")
        }
        guard try container.decodeIfPresent(String.self, forKey: .categoryIdentifier) != nil else {
            categoryIdentifier = nil
            return
        }
        guard kind != .replaced else {
            throw container.violation(
                .categoryIdentifier, "must be absent when change is replaced: the replacement carries its category")
        }
        categoryIdentifier = try container.decodeIdentifier(.categoryIdentifier, mayBeEmpty: true)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(requestIdentifier, forKey: .requestIdentifier)
        try container.encode(date, forKey: .date)
        try container.encodeIfPresent(categoryIdentifier, forKey: .categoryIdentifier)
        try container.encodeIfPresent(notificationDate, forKey: .notificationDate)
        switch change {
        case .removedPending:
            try container.encode(Kind.removedPending, forKey: .change)
        case .removedDelivered:
            try container.encode(Kind.removedDelivered, forKey: .change)
        case .replaced(let replacement):
            try container.encode(Kind.replaced, forKey: .change)
            try container.encode(replacement, forKey: .replacement)
        }
    }
}
