/// What caused a notification to be delivered: the four trigger kinds of UserNotifications.
public enum NotificationTrigger: Sendable, Hashable {
    /// A remote (push) notification, as `UNPushNotificationTrigger`.
    case push
    /// As `UNTimeIntervalNotificationTrigger`; `seconds` is greater than 0.
    case timeInterval(seconds: Double, repeats: Bool)
    /// As `UNCalendarNotificationTrigger`: components such as `hour`, `minute`, `weekday`.
    case calendar(dateComponents: [String: Int], repeats: Bool)
    /// As `UNLocationNotificationTrigger`.
    case location(region: CircularRegion, repeats: Bool)
}

extension NotificationTrigger: Codable, ContractObject {
    private enum CodingKeys: String, CodingKey {
        case type, timeInterval, repeats, dateComponents, region
    }

    private enum Kind: String, Codable, ContractEnum {
        case push, timeInterval, calendar, location

        init(from decoder: any Decoder) throws { try self.init(contractFrom: decoder) }
    }

    /// Reads a trigger by its `type`; `repeats` is false when absent and a time interval must be greater than 0.
    public init(from decoder: any Decoder) throws {
        try self.init(fields: decoder.container(keyedBy: CodingKeys.self))
    }

    static func read(from tape: JSONTape, at node: Int) throws -> Self {
        try Self(fields: TapeObject(tape: tape, objectAt: node))
    }

    private init(fields container: some ContractFields<CodingKeys>) throws {
        switch try container.decode(Kind.self, forKey: .type) {
        case .push:
            self = .push
        case .timeInterval:
            let seconds = try container.decode(Double.self, forKey: .timeInterval)
            guard seconds > 0 else { throw container.violation(.timeInterval, "must be greater than 0") }
            self = .timeInterval(
                seconds: seconds, repeats: try container.decodeIfPresent(Bool.self, forKey: .repeats) ?? false)
        case .calendar:
            self = .calendar(
                dateComponents: try container.decode([String: Int].self, forKey: .dateComponents),
                repeats: try container.decodeIfPresent(Bool.self, forKey: .repeats) ?? false)
        case .location:
            self = .location(
                region: try container.decode(CircularRegion.self, forKey: .region),
                repeats: try container.decodeIfPresent(Bool.self, forKey: .repeats) ?? false)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .push:
            try container.encode(Kind.push, forKey: .type)
        case .timeInterval(let seconds, let repeats):
            try container.encode(Kind.timeInterval, forKey: .type)
            try container.encode(seconds, forKey: .timeInterval)
            try container.encode(repeats, forKey: .repeats)
        case .calendar(let components, let repeats):
            try container.encode(Kind.calendar, forKey: .type)
            try container.encode(components, forKey: .dateComponents)
            try container.encode(repeats, forKey: .repeats)
        case .location(let region, let repeats):
            try container.encode(Kind.location, forKey: .type)
            try container.encode(region, forKey: .region)
            try container.encode(repeats, forKey: .repeats)
        }
    }
}
