/// The region of a location trigger, as `CLCircularRegion`.
public struct CircularRegion: Sendable, Hashable, Codable, ContractObject {
    /// Names the region.
    public var identifier: String
    /// In degrees, -90 to 90.
    public var latitude: Double
    /// In degrees, -180 to 180.
    public var longitude: Double
    /// In metres, at least 0.
    public var radius: Double
    /// Whether entering the region triggers.
    public var notifyOnEntry: Bool?
    /// Whether leaving the region triggers.
    public var notifyOnExit: Bool?

    /// A circle of `radius` metres around a coordinate.
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

    private enum CodingKeys: String, CodingKey {
        case identifier, latitude, longitude, radius, notifyOnEntry, notifyOnExit
    }

    /// Reads a region; its coordinates must lie on Earth and its radius must not be negative.
    public init(from decoder: any Decoder) throws {
        try self.init(fields: decoder.container(keyedBy: CodingKeys.self))
    }

    static func read(from tape: JSONTape, at node: Int) throws -> Self {
        try Self(fields: TapeObject(tape: tape, objectAt: node))
    }

    private init(fields container: some ContractFields<CodingKeys>) throws {
        identifier = try container.decode(String.self, forKey: .identifier)
        latitude = try container.decode(Double.self, forKey: .latitude, in: -90...90)
        longitude = try container.decode(Double.self, forKey: .longitude, in: -180...180)
        radius = try container.decode(Double.self, forKey: .radius, atLeast: 0)
        notifyOnEntry = try container.decodeIfPresent(Bool.self, forKey: .notifyOnEntry)
        notifyOnExit = try container.decodeIfPresent(Bool.self, forKey: .notifyOnExit)
    }
}
