import NotificationEvents

// Replay writes one fixture line per output and the recorder one per delivery, so a line is written here directly,
// member by member in sorted key order, rather than through `Encodable` (NotificationEvents' ActionSetUpdateJSON.swift
// says why). The bytes are those of the contract's generic encoder on the same line (FixtureLineWriterTests compares
// them with it and with Foundation's on every fixture of Fixtures/ and on every optional present and absent).
// Kept while it pays: Benchmarks/thresholds.json's replay row "every-update memory" (147,100 instructions an event) fails without it.

extension EventCodec {
    /// The bytes of `line` as a fixture file holds it: the stable JSON the generic `encode(_:)` writes, written
    /// directly.
    ///
    /// Every line encodes, except one whose body was set to a value JSON cannot carry (NaN), or whose body or headers
    /// nest deeper than the encoder's limit: building such a line is a programming error, and this traps on it.
    public static func encode(_ line: FixtureLine) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1024)
        do {
            try line.appendJSON(to: &bytes)
        } catch {
            preconditionFailure("a fixture line did not encode: \(error)")
        }
        return bytes
    }
}

extension FixtureLine {
    /// Keys in UTF-8 order: body, bodyBase64, exchange, properties, redelivered, routingKey; absent optionals left
    /// out, as `encodeIfPresent` does. Throws what the generic encoder throws for a body JSON cannot carry (NaN), or a
    /// body or headers nested deeper than `JSONText.maximumDepth`.
    func appendJSON(to bytes: inout [UInt8]) throws {
        bytes.append(UInt8(ascii: "{"))
        if let bodyJSON {
            JSONText.append(#""body":"#, to: &bytes)
            try bodyJSON.appendStable(to: &bytes, depth: 1)
            bytes.append(UInt8(ascii: ","))
        }
        if let bodyBase64 {
            JSONText.append(#""bodyBase64":"#, to: &bytes)
            JSONText.appendString(bodyBase64, to: &bytes)
            bytes.append(UInt8(ascii: ","))
        }
        JSONText.append(#""exchange":"#, to: &bytes)
        JSONText.appendString(exchange, to: &bytes)
        JSONText.append(#","properties":"#, to: &bytes)
        try RecordedProperties(properties).appendJSON(to: &bytes)
        if let redelivered {
            JSONText.append(redelivered ? #","redelivered":true"# : #","redelivered":false"#, to: &bytes)
        }
        JSONText.append(#","routingKey":"#, to: &bytes)
        JSONText.appendString(routingKey, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
    }
}

extension RecordedProperties {
    /// Keys in UTF-8 order: appId, contentEncoding, contentType, correlationId, deliveryMode, headers, messageId,
    /// timestamp, type; absent ones and empty headers left out. `{}` when none is set.
    func appendJSON(to bytes: inout [UInt8]) throws {
        var separator = UInt8(ascii: "{")
        func key(_ key: StaticString) {
            bytes.append(separator)
            separator = UInt8(ascii: ",")
            JSONText.append(key, to: &bytes)
        }
        func string(_ name: StaticString, _ value: String?) {
            guard let value else { return }
            key(name)
            JSONText.appendString(value, to: &bytes)
        }
        func integer(_ name: StaticString, _ value: Int64?) {
            guard let value else { return }
            key(name)
            JSONText.appendInteger(value, to: &bytes)
        }
        string(#""appId":"#, properties.appID)
        string(#""contentEncoding":"#, properties.contentEncoding)
        string(#""contentType":"#, properties.contentType)
        string(#""correlationId":"#, properties.correlationID)
        integer(#""deliveryMode":"#, properties.deliveryMode.map { Int64($0.rawValue) })
        if !properties.headers.isEmpty {
            key(#""headers":"#)
            // At the depth the generic encoder gives it: the line is 0, its properties 1.
            try JSONText.appendValue(.object(properties.jsonHeaders), to: &bytes, depth: 2)
        }
        string(#""messageId":"#, properties.messageID)
        integer(#""timestamp":"#, properties.timestamp.flatMap { Int64(exactly: $0) })
        string(#""type":"#, properties.type)
        if separator == UInt8(ascii: "{") { bytes.append(separator) }
        bytes.append(UInt8(ascii: "}"))
    }
}
