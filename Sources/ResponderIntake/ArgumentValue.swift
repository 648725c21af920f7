/// A queue argument's value: the kinds the topology uses.
public enum ArgumentValue: Sendable, Hashable, Codable, CustomStringConvertible {
    case string(String)
    case integer(Int64)
    case boolean(Bool)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Bool.self) {
            self = .boolean(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .boolean(let value): try container.encode(value)
        }
    }

    public var description: String {
        switch self {
        case .string(let value): "\"\(value)\""
        case .integer(let value): String(value)
        case .boolean(let value): String(value)
        }
    }
}
