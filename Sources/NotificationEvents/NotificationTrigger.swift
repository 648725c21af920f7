/// What caused a notification to be delivered: the four trigger kinds of UserNotifications.
public enum NotificationTrigger: Sendable, Hashable {
    /// A remote (push) notification, as `UNPushNotificationTrigger`.
    case push
    /// As `UNTimeIntervalNotificationTrigger`.
    case timeInterval(seconds: Double, repeats: Bool)
    /// As `UNCalendarNotificationTrigger`: components such as `hour`, `minute`, `weekday`.
    case calendar(dateComponents: [String: Int], repeats: Bool)
    /// As `UNLocationNotificationTrigger`.
    case location(region: CircularRegion, repeats: Bool)
}

/// The region of a location trigger, as `CLCircularRegion`.
public struct CircularRegion: Sendable, Hashable, Codable {
    public var identifier: String
    public var latitude: Double
    public var longitude: Double
    /// In metres.
    public var radius: Double
    public var notifyOnEntry: Bool?
    public var notifyOnExit: Bool?

    public init(
        identifier: String, latitude: Double, longitude: Double, radius: Double,
        notifyOnEntry: Bool? = nil, notifyOnExit: Bool? = nil
    ) {
        self.identifier = identifier
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
        self.notifyOnEntry = notifyOnEntry
        self.notifyOnExit = notifyOnExit
    }
}

extension NotificationTrigger: Codable {
    private enum CodingKeys: String, CodingKey {
        case type, timeInterval, repeats, dateComponents, region
    }

    private enum Kind: String, Codable {
        case push, timeInterval, calendar, location
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(Kind.self, forKey: .type) {
        case .push:
            self = .push
        case .timeInterval:
            self = .timeInterval(
                seconds: try container.decode(Double.self, forKey: .timeInterval),
                repeats: try container.decodeIfPresent(Bool.self, forKey: .repeats) ?? false)
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
