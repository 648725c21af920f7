import Messaging
import NotificationEvents

/// The W3C Trace Context headers (`traceparent`, `tracestate`) an input passes on to its outputs, so a trace
/// continues across the worker; only values that are valid by the W3C grammar and within its length limits
/// travel, since anything else is a producer's bytes the worker would repeat.
enum TraceContext {
    static let traceparent = "traceparent"
    static let tracestate = "tracestate"

    /// The trace headers of `headers` that outputs carry: `traceparent` when it is valid, and `tracestate` when it
    /// is valid too (the W3C rules drop `tracestate` along with an invalid `traceparent`).
    /// Of a header given twice, the last counts.
    static func propagated(from headers: FieldTable) -> FieldTable {
        var kept = FieldTable()
        guard !headers.isEmpty, case .string(let parent)? = headers.last(named: traceparent),
            isValidTraceparent(parent)
        else { return kept }
        kept[traceparent] = .string(parent)
        if case .string(let state)? = headers.last(named: tracestate), isValidTracestate(state) {
            kept[tracestate] = .string(state)
        }
        return kept
    }

    /// Whether `headers` carry a trace header that ``propagated(from:)`` drops.
    static func dropsAny(of headers: FieldTable) -> Bool {
        guard !headers.isEmpty else { return false }
        let present = [traceparent, tracestate].filter { headers.contains(named: $0) }.count
        return present > 0 && propagated(from: headers).count < present
    }

    /// `version-traceid-parentid-flags`: lowercase hex of 2, 32, 16 and 2 digits, version not `ff`, ids not all
    /// zero. Later versions may append fields; the worker passes on only what version 00 defines.
    static func isValidTraceparent(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        guard bytes.count == 55, bytes[2] == dash, bytes[35] == dash, bytes[52] == dash else { return false }
        let fields = [bytes[0..<2], bytes[3..<35], bytes[36..<52], bytes[53..<55]]
        guard fields.allSatisfy({ $0.allSatisfy(isLowerHex) }) else { return false }
        return fields[0] != [0x66, 0x66] && fields[1].contains { $0 != zero } && fields[2].contains { $0 != zero }
    }

    /// At most 32 comma-separated `key=value` members (empty ones allowed); a key is a lowercase simple key of up
    /// to 256 characters or `tenant@system` (241 and 14); a value 1–256 printable ASCII characters without `,` or
    /// `=`, not ending in a space.
    static func isValidTracestate(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        guard bytes.count <= 32 * 514 else { return false }
        var members = 0
        for rawMember in bytes.split(separator: comma, omittingEmptySubsequences: false) {
            let member = Array(rawMember.drop { $0 == space || $0 == tab }.reversed().drop { $0 == space || $0 == tab }.reversed())
            if member.isEmpty { continue }
            members += 1
            guard members <= 32, let equals = member.firstIndex(of: equalsSign) else { return false }
            let key = Array(member[..<equals])
            let memberValue = Array(member[(equals + 1)...])
            guard isValidKey(key), isValidValue(memberValue) else { return false }
        }
        return true
    }

    private static func isValidKey(_ key: [UInt8]) -> Bool {
        let parts = key.split(separator: at, omittingEmptySubsequences: false)
        switch parts.count {
        case 1: return isSimpleKey(parts[0], limit: 256, firstMayBeDigit: false)
        case 2: return isSimpleKey(parts[0], limit: 241, firstMayBeDigit: true) && isSimpleKey(parts[1], limit: 14, firstMayBeDigit: false)
        default: return false
        }
    }

    private static func isSimpleKey(_ key: ArraySlice<UInt8>, limit: Int, firstMayBeDigit: Bool) -> Bool {
        guard let first = key.first, key.count <= limit else { return false }
        guard isLowerAlpha(first) || (firstMayBeDigit && isDigit(first)) else { return false }
        return key.dropFirst().allSatisfy { isLowerAlpha($0) || isDigit($0) || "_-*/".utf8.contains($0) }
    }

    private static func isValidValue(_ value: [UInt8]) -> Bool {
        guard !value.isEmpty, value.count <= 256, value.last != space else { return false }
        return value.allSatisfy { (0x20...0x7E).contains($0) && $0 != comma && $0 != equalsSign }
    }

    private static let dash = UInt8(ascii: "-")
    private static let zero = UInt8(ascii: "0")
    private static let comma = UInt8(ascii: ",")
    private static let equalsSign = UInt8(ascii: "=")
    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")
    private static let at = UInt8(ascii: "@")

    private static func isLowerHex(_ byte: UInt8) -> Bool { isDigit(byte) || (0x61...0x66).contains(byte) }
    private static func isLowerAlpha(_ byte: UInt8) -> Bool { (0x61...0x7A).contains(byte) }
    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
}
