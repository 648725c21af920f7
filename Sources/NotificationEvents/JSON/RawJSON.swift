/// A JSON value kept as the text it arrived in (checked by the contract's rules) or as the value it was set to,
/// for fixture bodies: replay hands the recorded bytes on instead of re-encoding them, and a fixture file still
/// gets the stable form (sorted keys, no spacing) that ``EventCodec/encode(_:)`` writes.
///
/// ``ContractDecoder`` and ``ContractEncoder`` read and write the text directly; other coders go through
/// ``JSONValue``. Two are equal when their values are, whatever their spacing or key order.
package struct RawJSON: Sendable, Hashable, Codable {
    private enum Storage: Sendable {
        /// The value at a node of a parsed document, which keeps the text.
        case text(JSONTape, node: Int)
        /// A whole document already in the stable form (``StableJSONScanner``), kept unparsed.
        case stableText([UInt8])
        case value(JSONValue)
    }

    private let storage: Storage

    /// The value at `node` of `tape`.
    package init(_ tape: JSONTape, node: Int) {
        storage = .text(tape, node: node)
    }

    /// The document `bytes` when they are an object or an array in the stable form, so they need no parse to be
    /// kept and no writing to be written; nil for any other bytes.
    package init?(stableText bytes: [UInt8]) {
        guard bytes.withUnsafeBufferPointer(StableJSONScanner.isStable) else { return nil }
        storage = .stableText(bytes)
    }

    package init(_ value: JSONValue) {
        storage = .value(value)
    }

    package var value: JSONValue {
        switch storage {
        case .text(let tape, let node): return tape.value(at: node)
        case .stableText(let bytes):
            // The scanner accepts only documents the parser accepts.
            guard let tape = try? StrictJSONParser.parse(bytes) else {
                preconditionFailure("a document in the stable form did not parse")
            }
            return tape.value(at: 0)
        case .value(let value): return value
        }
    }

    /// The text as it arrived (a whole document with the spacing around its value), or the value's stable text.
    package var bytes: [UInt8] {
        switch storage {
        case .text(let tape, let node): node == 0 ? tape.bytes : tape.text(at: node)
        case .stableText(let bytes): bytes
        case .value(let value): EventCodec.encode(value)
        }
    }

    /// Appends the stable text of the value.
    package func appendStable(to bytes: inout [UInt8], depth: Int) throws {
        switch storage {
        case .text(let tape, let node): try JSONText.appendStable(tape, at: node, to: &bytes, depth: depth)
        // At most 64 levels deep, far from the writer's limit.
        case .stableText(let text): bytes.append(contentsOf: text)
        case .value(let value): try JSONText.appendValue(value, to: &bytes, depth: depth)
        }
    }

    package init(from decoder: any Decoder) throws {
        storage = .value(try JSONValue(from: decoder))
    }

    package func encode(to encoder: any Encoder) throws {
        try value.encode(to: encoder)
    }

    package static func == (first: RawJSON, second: RawJSON) -> Bool {
        first.value == second.value
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(value)
    }
}
