import Foundation

/// The JSON scalars a Swift value can be read from, with JSON Schema's number rules.
protocol ContractScalar {
    /// The kind an error names when the JSON value does not fit, e.g. `integer`.
    static var kind: String { get }
    /// Reads the value at `node`, or throws a mismatch placed at `place` when the JSON value there is not one.
    /// It throws rather than returning an optional, whose type generic callers would look up at run time.
    init(tape: JSONTape, node: Int, place: Int) throws
}

extension ContractScalar {
    static func mismatch(_ tape: JSONTape, _ node: Int, _ place: Int) -> DecodingError {
        ContractDecoder.mismatch(tape.codingPath(to: place), expected: kind, in: tape, at: node)
    }
}

extension String: ContractScalar {
    static var kind: String { "string" }
    init(tape: JSONTape, node: Int, place: Int) throws {
        guard tape.nodes[node].kind == .string else { throw Self.mismatch(tape, node, place) }
        self = tape.string(at: node)
    }
}

extension Bool: ContractScalar {
    static var kind: String { "boolean" }
    init(tape: JSONTape, node: Int, place: Int) throws {
        switch tape.nodes[node].kind {
        case .true: self = true
        case .false: self = false
        default: throw Self.mismatch(tape, node, place)
        }
    }
}

extension Double: ContractScalar {
    static var kind: String { "number" }
    init(tape: JSONTape, node: Int, place: Int) throws {
        switch tape.nodes[node].kind {
        case .integer, .number: self = tape.double(at: node)
        default: throw Self.mismatch(tape, node, place)
        }
    }
}

extension Float: ContractScalar {
    static var kind: String { "number" }
    init(tape: JSONTape, node: Int, place: Int) throws {
        let number = try Double(tape: tape, node: node, place: place)
        guard Float(number).isFinite else { throw Self.mismatch(tape, node, place) }
        self = Float(number)
    }
}

/// JSON Schema counts a number with a zero fraction, such as `1.0`, as an integer; so does the contract.
extension ContractScalar where Self: FixedWidthInteger {
    static var kind: String { "integer" }
    init(tape: JSONTape, node: Int, place: Int) throws {
        let value: Self?
        switch tape.nodes[node].kind {
        case .integer: value = Self(exactly: tape.integer(at: node))
        case .number: value = Self(exactly: tape.double(at: node))
        default: value = nil
        }
        guard let value else { throw Self.mismatch(tape, node, place) }
        self = value
    }
}

extension Int: ContractScalar {}
extension Int8: ContractScalar {}
extension Int16: ContractScalar {}
extension Int32: ContractScalar {}
extension Int64: ContractScalar {}
extension UInt: ContractScalar {}
extension UInt8: ContractScalar {}
extension UInt16: ContractScalar {}
extension UInt32: ContractScalar {}
extension UInt64: ContractScalar {}
