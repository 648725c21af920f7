import Foundation

/// One value in an AMQP field table or array: message headers, queue and exchange arguments.
///
/// Received values nest at most 64 tables or arrays deep, the table that holds them counting as one: anything
/// deeper arrives as ``void``.
/// The cases are the types RabbitMQ and librabbitmq agree on. There is no unsigned 64-bit case: RabbitMQ rejects
/// that type ('L'), so use ``int64(_:)``. Literals make tables easy to write:
/// `["x-message-ttl": 60_000, "x-dead-letter-exchange": "dlx", "x-single-active-consumer": true]`
/// (integer literals are ``int64(_:)``, floating-point literals ``double(_:)``).
public enum FieldValue: Sendable, Hashable {
    /// A boolean ('t').
    case bool(Bool)
    /// A signed 8-bit integer ('b').
    case int8(Int8)
    /// A signed 16-bit integer ('s').
    case int16(Int16)
    /// A signed 32-bit integer ('I').
    case int32(Int32)
    /// A signed 64-bit integer ('l'), the usual choice for numbers.
    case int64(Int64)
    /// An unsigned 8-bit integer ('B').
    case uint8(UInt8)
    /// An unsigned 16-bit integer ('u').
    case uint16(UInt16)
    /// An unsigned 32-bit integer ('i').
    case uint32(UInt32)
    /// A 32-bit float ('f').
    case float(Float)
    /// A 64-bit float ('d').
    case double(Double)
    /// A decimal ('D'): `value` divided by 10 to the power `scale`.
    case decimal(scale: UInt8, value: UInt32)
    /// A UTF-8 string ('S'). A received one that is not valid UTF-8 arrives as ``rawString(_:)``.
    case string(String)
    /// A long string ('S') whose bytes are not valid UTF-8, as another client sent it: kept as bytes, so that the
    /// same header published again neither changes nor grows (decoding would replace each bad byte with three).
    case rawString([UInt8])
    /// Raw bytes ('x').
    case bytes([UInt8])
    /// An array of values ('A'), which may nest.
    case array([FieldValue])
    /// A nested table ('F').
    case table(FieldTable)
    /// A point in time ('T'): whole seconds since 1970, exactly as the wire carries them (any value up to
    /// 2^64 - 1 arrives from other clients, so no conversion happens until ``dateValue`` is asked).
    case timestamp(UInt64)
    /// No value ('V').
    case void

    /// The value of any integer case as an `Int`, or `nil` for other cases.
    public var intValue: Int? {
        switch self {
        case .int8(let value): Int(value)
        case .int16(let value): Int(value)
        case .int32(let value): Int(value)
        case .int64(let value): Int(value)
        case .uint8(let value): Int(value)
        case .uint16(let value): Int(value)
        case .uint32(let value): Int(value)
        default: nil
        }
    }

    /// The value of ``string(_:)``, or `nil` for other cases.
    public var stringValue: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// The value of ``bool(_:)``, or `nil` for other cases.
    public var boolValue: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    /// The value of ``double(_:)`` or ``float(_:)``, or of an integer case, as a `Double`; `nil` for other cases.
    public var doubleValue: Double? {
        switch self {
        case .double(let value): value
        case .float(let value): Double(value)
        default: intValue.map(Double.init)
        }
    }

    /// The value of ``bytes(_:)``, or `nil` for other cases.
    public var bytesValue: [UInt8]? {
        if case .bytes(let value) = self { value } else { nil }
    }

    /// The value of ``array(_:)``, or `nil` for other cases.
    public var arrayValue: [FieldValue]? {
        if case .array(let value) = self { value } else { nil }
    }

    /// The value of ``table(_:)``, or `nil` for other cases.
    public var tableValue: FieldTable? {
        if case .table(let value) = self { value } else { nil }
    }

    /// The value of ``timestamp(_:)`` as a `Date`, or `nil` for other cases.
    public var dateValue: Date? {
        if case .timestamp(let seconds) = self { Date(timeIntervalSince1970: TimeInterval(seconds)) } else { nil }
    }

    /// The AMQP timestamp for `date`: its whole seconds since 1970; earlier dates become 0, later than the wire
    /// can carry become 2^64 - 1.
    public static func timestamp(_ date: Date) -> FieldValue {
        .timestamp(UInt64(clampingSeconds: date))
    }
}

extension FieldValue: ExpressibleByStringLiteral {
    /// A ``string(_:)``.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension FieldValue: ExpressibleByIntegerLiteral {
    /// An ``int64(_:)``.
    public init(integerLiteral value: Int64) { self = .int64(value) }
}

extension FieldValue: ExpressibleByFloatLiteral {
    /// A ``double(_:)``.
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension FieldValue: ExpressibleByBooleanLiteral {
    /// A ``bool(_:)``.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension FieldValue: ExpressibleByArrayLiteral {
    /// An ``array(_:)``.
    public init(arrayLiteral elements: FieldValue...) { self = .array(elements) }
}

extension FieldValue: ExpressibleByDictionaryLiteral {
    /// A ``table(_:)`` with the entries in the literal's order.
    public init(dictionaryLiteral elements: (String, FieldValue)...) {
        self = .table(FieldTable(elements))
    }
}
