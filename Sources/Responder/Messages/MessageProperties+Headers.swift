import Foundation
import Messaging
import NotificationEvents

extension MessageProperties {
    /// The headers by name as JSON values; of a name given twice the last counts, except a CloudEvents attribute
    /// header (`BinaryModeHeaders`), where two values are ambiguous: it becomes the array of both, which no attribute
    /// may be, so a binary-mode input with it is dead-lettered as an invalid field. An attribute header that is an
    /// AMQP timestamp (seconds) becomes milliseconds, the binding's integer form of a time.
    ///
    /// The form a binary-mode event's attributes are read from, and the one fixture lines and stored outputs hold.
    public var jsonHeaders: [String: JSONValue] {
        var json: [String: JSONValue] = [:]
        for (name, field) in headers {
            let isAttribute = BinaryModeHeaders.attribute(ofHeader: name) != nil
            var value = JSONValue(field)
            if isAttribute, case .timestamp(let seconds) = field, let exact = Int64(exactly: seconds) {
                let (milliseconds, overflow) = exact.multipliedReportingOverflow(by: 1_000)
                if !overflow { value = .integer(milliseconds) }
            }
            if let earlier = json.updateValue(value, forKey: name), isAttribute {
                json[name] = .array([earlier, value])
            }
        }
        return json
    }
}

extension MessageProperties {
    /// The W3C Trace Context headers (`traceparent`, `tracestate`) of `headers` that are valid, as outputs carry
    /// them; empty when `traceparent` is missing or invalid. A tracer continues the producer's trace from these only.
    public var validTraceHeaders: [String: String] {
        var valid: [String: String] = [:]
        for (name, value) in TraceContext.propagated(from: headers) {
            if case .string(let text) = value { valid[name] = text }
        }
        return valid
    }

    /// How the message carries its event, as the CloudEvents AMQP binding tells the modes apart.
    var contentMode: EventContentMode {
        EventContentMode.of(contentType: contentType) { headers.contains(named: $0) }
    }
}

extension FieldTable {
    /// A table of JSON values, sorted by key: the field-table form of JSON headers (a fixture line's, a stored
    /// output's) and of JSON objects. An empty object makes an empty table at once: most outputs carry no headers,
    /// and sorting and mapping none cost about 800 instructions.
    public init(json object: [String: JSONValue]) {
        guard !object.isEmpty else {
            self.init()
            return
        }
        self.init(object.sorted { $0.key < $1.key }.map { ($0.key, FieldValue($0.value)) })
    }

    /// Whether an entry is named `name`.
    func contains(named name: String) -> Bool {
        entries.contains { $0.key == name }
    }

    /// The value of the last entry named `name`: the one that counts, as in `MessageProperties.jsonHeaders`.
    func last(named name: String) -> FieldValue? {
        entries.last { $0.key == name }?.value
    }
}

extension JSONValue {
    /// The JSON form of a header value: numbers stay numbers, bytes become base64, timestamps seconds since 1970.
    /// JSON has no NaN or infinity: those floats become the strings `NaN`, `Infinity` and `-Infinity`. A string
    /// that is not UTF-8 becomes one with U+FFFD for each bad sequence.
    public init(_ field: FieldValue) {
        switch field {
        case .bool(let value): self = .bool(value)
        case .int8(let value): self = .integer(Int64(value))
        case .int16(let value): self = .integer(Int64(value))
        case .int32(let value): self = .integer(Int64(value))
        case .int64(let value): self = .integer(value)
        case .uint8(let value): self = .integer(Int64(value))
        case .uint16(let value): self = .integer(Int64(value))
        case .uint32(let value): self = .integer(Int64(value))
        case .float(let value): self = JSONValue(Double(value))
        case .double(let value): self = JSONValue(value)
        // At most 2^32 - 1 over at most 10^255: always finite.
        case .decimal(let scale, let value): self = .number(Double(value) / pow(10, Double(scale)))
        case .string(let value): self = .string(value)
        case .rawString(let value): self = .string(String(decoding: value, as: UTF8.self))
        case .bytes(let value): self = .string(Data(value).base64EncodedString())
        case .array(let values): self = .array(values.map(JSONValue.init))
        case .table(let table): self = .object(Dictionary(table.map { ($0.0, JSONValue($0.1)) }, uniquingKeysWith: { _, last in last }))
        case .timestamp(let seconds): self = Int64(exactly: seconds).map(JSONValue.integer) ?? .number(Double(seconds))
        case .void: self = .null
        }
    }

    private init(_ number: Double) {
        if number.isFinite {
            self = .number(number)
        } else {
            self = .string(number.isNaN ? "NaN" : number < 0 ? "-Infinity" : "Infinity")
        }
    }
}

extension FieldValue {
    /// The field value of a JSON value: integers as 64-bit, objects as tables with sorted keys.
    public init(_ json: JSONValue) {
        switch json {
        case .null: self = .void
        case .bool(let value): self = .bool(value)
        case .integer(let value): self = .int64(value)
        case .number(let value): self = .double(value)
        case .string(let value): self = .string(value)
        case .array(let values): self = .array(values.map(FieldValue.init))
        case .object(let object): self = .table(FieldTable(json: object))
        }
    }
}
