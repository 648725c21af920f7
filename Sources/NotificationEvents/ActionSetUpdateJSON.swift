import Foundation

// The output event and the action sets the stores keep are written once per update, so they are written here
// directly, member by member in sorted key order, rather than through `Encodable`: the generic path spends most of
// its time instantiating generic metadata (containers, optionals, arrays) for every value. The bytes are those of
// `ContractEncoder` on the same value (FoundationParityTests compares them with Foundation's on every shape of
// these types). `EventCodec.encode(_:)` takes this path for these types.
// Kept while it pays: Benchmarks/thresholds.json's replay row "every-update memory" (147,100 instructions an event) fails without it.
//
// The member names are written as literals, with their separators, quotes and colons, so they repeat the types'
// `CodingKeys`: the types' `Codable` conformances stay the contract's one definition, and FoundationParityTests
// fails the moment a name, an order or an omitted optional here differs from them.

extension EventCodec {
    /// The bytes of the output event, its data or an action set, written directly; nil for a value of any other
    /// type. A metatype comparison, which specialization folds away, picks the writer: a cast would cost more.
    static func directlyWritten<Value>(_ value: Value) -> [UInt8]? {
        var bytes: [UInt8] = []
        if Value.self == ActionSetUpdateEvent.self {
            bytes.reserveCapacity(640)
            (value as! ActionSetUpdateEvent).appendJSON(to: &bytes)
        } else if Value.self == ActionSetUpdate.self {
            bytes.reserveCapacity(512)
            (value as! ActionSetUpdate).appendJSON(to: &bytes)
        } else if Value.self == [NotificationAction].self {
            let actions = value as! [NotificationAction]
            bytes.reserveCapacity(96 * actions.count + 2)
            NotificationAction.appendJSON(actions, to: &bytes)
        } else {
            return nil
        }
        return bytes
    }
}

extension CloudEvent where Payload == ActionSetUpdate {
    /// Keys in UTF-8 order: data, datacontenttype, id, source, specversion, subject, time, type; absent optionals
    /// left out, as `encodeIfPresent` does.
    func appendJSON(to bytes: inout [UInt8]) {
        JSONText.append(#"{"data":"#, to: &bytes)
        data.appendJSON(to: &bytes)
        if let datacontenttype {
            JSONText.appendMember(#","datacontenttype":"#, datacontenttype, to: &bytes)
        }
        JSONText.appendMember(#","id":"#, id, to: &bytes)
        JSONText.appendMember(#","source":"#, source, to: &bytes)
        JSONText.appendMember(#","specversion":"#, specversion, to: &bytes)
        if let subject {
            JSONText.appendMember(#","subject":"#, subject, to: &bytes)
        }
        if let time {
            JSONText.append(#","time":""#, to: &bytes)
            InternetDate.append(time, to: &bytes)
            bytes.append(UInt8(ascii: "\""))
        }
        JSONText.appendMember(#","type":"#, type, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
    }
}

extension ActionSetUpdate {
    /// Keys in UTF-8 order: actions, categoryIdentifier, causationId, requestIdentifier, responseOption, version.
    func appendJSON(to bytes: inout [UInt8]) {
        JSONText.append(#"{"actions":"#, to: &bytes)
        NotificationAction.appendJSON(actions, to: &bytes)
        JSONText.appendMember(#","categoryIdentifier":"#, categoryIdentifier, to: &bytes)
        JSONText.appendMember(#","causationId":"#, causationId, to: &bytes)
        JSONText.appendMember(#","requestIdentifier":"#, requestIdentifier, to: &bytes)
        JSONText.appendMember(#","responseOption":"#, responseOption.rawValue, to: &bytes)
        JSONText.append(#","version":"#, to: &bytes)
        JSONText.appendInteger(version, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
    }
}

extension NotificationAction {
    /// An array of actions; each with keys in UTF-8 order: identifier, options (always, `[]` when none),
    /// textInput (when set: buttonTitle, placeholder), title.
    static func appendJSON(_ actions: [NotificationAction], to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "["))
        for (position, action) in actions.enumerated() {
            if position > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONText.appendMember(#"{"identifier":"#, action.identifier, to: &bytes)
            JSONText.append(#","options":["#, to: &bytes)
            for (index, option) in action.options.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                JSONText.appendString(option.rawValue, to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
            if let textInput = action.textInput {
                JSONText.appendMember(#","textInput":{"buttonTitle":"#, textInput.buttonTitle, to: &bytes)
                JSONText.appendMember(#","placeholder":"#, textInput.placeholder, to: &bytes)
                bytes.append(UInt8(ascii: "}"))
            }
            JSONText.appendMember(#","title":"#, action.title, to: &bytes)
            bytes.append(UInt8(ascii: "}"))
        }
        bytes.append(UInt8(ascii: "]"))
    }
}

extension JSONText {
    /// Appends `key`, a literal with the separator, quotes and colon before the value, then the string `value`.
    fileprivate static func appendMember(_ key: StaticString, _ value: String, to bytes: inout [UInt8]) {
        append(key, to: &bytes)
        appendString(value, to: &bytes)
    }
}
