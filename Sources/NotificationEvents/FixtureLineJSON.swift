// Replay writes one fixture line per output and the recorder one per delivery, so a line is written here directly,
// member by member in sorted key order, rather than through `Encodable` (see ActionSetUpdateJSON.swift for why).
// The bytes are those of `ContractEncoder` on the same line (FoundationParityTests compares them with it and with
// Foundation's on every fixture of Fixtures/ and on every optional present and absent).

extension FixtureLine {
    /// Keys in UTF-8 order: body, bodyBase64, exchange, properties, redelivered, routingKey; absent optionals left
    /// out, as `encodeIfPresent` does. Throws what the generic encoder throws for a body or headers set to a value
    /// JSON cannot carry (NaN, or nested deeper than ``JSONText/maximumDepth``).
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
        try properties.appendJSON(to: &bytes)
        if let redelivered {
            JSONText.append(redelivered ? #","redelivered":true"# : #","redelivered":false"#, to: &bytes)
        }
        JSONText.append(#","routingKey":"#, to: &bytes)
        JSONText.appendString(routingKey, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
    }
}

extension FixtureLine.Properties {
    /// Keys in UTF-8 order: appId, contentEncoding, contentType, correlationId, deliveryMode, headers, messageId,
    /// timestamp, type; absent ones left out. `{}` when none is set.
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
        func integer(_ name: StaticString, _ value: (some BinaryInteger)?) {
            guard let value else { return }
            key(name)
            JSONText.appendInteger(value, to: &bytes)
        }
        string(#""appId":"#, appId)
        string(#""contentEncoding":"#, contentEncoding)
        string(#""contentType":"#, contentType)
        string(#""correlationId":"#, correlationId)
        integer(#""deliveryMode":"#, deliveryMode)
        if let headers {
            key(#""headers":"#)
            // At the depth the generic encoder gives it: the line is 0, its properties 1.
            try JSONText.appendValue(.object(headers), to: &bytes, depth: 2)
        }
        string(#""messageId":"#, messageId)
        integer(#""timestamp":"#, timestamp)
        string(#""type":"#, type)
        if separator == UInt8(ascii: "{") { bytes.append(separator) }
        bytes.append(UInt8(ascii: "}"))
    }
}
