import NIOCore
import NotificationEvents
import Responder

/// The `bytea` layouts of ``PostgresStateStore``: an event's outputs and a notification's handler states, each in
/// one column, so that a commit writes one row per table whatever the number of outputs or handlers.
///
/// A value is a 32-bit big-endian count, then per item its fields, each a 32-bit big-endian length and that many
/// bytes: exchange, routing key, properties (contract JSON) and body for an output; handler name and state for a
/// handler state. Bodies and states are kept byte for byte. Reading refuses anything that does not parse exactly.
enum StoredBytes {
    /// The column of `outputs`.
    static func encode(_ outputs: [OutboundMessage]) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.writeInteger(UInt32(outputs.count))
        for output in outputs {
            writeField(Array(output.exchange.utf8), to: &buffer)
            writeField(Array(output.routingKey.utf8), to: &buffer)
            writeField(output.properties.storedBytes, to: &buffer)
            writeField(output.body, to: &buffer)
        }
        return buffer
    }

    /// The column of `states`.
    static func encode(_ states: [String: [UInt8]]) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.writeInteger(UInt32(states.count))
        for (handler, state) in states.sorted(by: { $0.key < $1.key }) {
            writeField(Array(handler.utf8), to: &buffer)
            writeField(state, to: &buffer)
        }
        return buffer
    }

    /// The outputs a column holds.
    static func outputs(_ column: ByteBuffer) throws -> [OutboundMessage] {
        var buffer = column
        let count = try readCount(&buffer)
        var outputs: [OutboundMessage] = []
        for _ in 0..<count {
            let exchange = try readText(&buffer)
            let routingKey = try readText(&buffer)
            let properties = try MessageProperties(storedBytes: try readField(&buffer))
            let body = try readField(&buffer)
            outputs.append(OutboundMessage(exchange: exchange, routingKey: routingKey, body: body, properties: properties))
        }
        try expectEnd(buffer)
        return outputs
    }

    /// The handler states a column holds.
    static func states(_ column: ByteBuffer) throws -> [String: [UInt8]] {
        var buffer = column
        let count = try readCount(&buffer)
        var states: [String: [UInt8]] = [:]
        for _ in 0..<count {
            let handler = try readText(&buffer)
            states[handler] = try readField(&buffer)
        }
        try expectEnd(buffer)
        return states
    }

    private static func writeField(_ bytes: [UInt8], to buffer: inout ByteBuffer) {
        buffer.writeInteger(UInt32(bytes.count))
        buffer.writeBytes(bytes)
    }

    private static func readCount(_ buffer: inout ByteBuffer) throws -> Int {
        guard let count = buffer.readInteger(as: UInt32.self) else { throw StoredBytesError() }
        return Int(count)
    }

    private static func readField(_ buffer: inout ByteBuffer) throws -> [UInt8] {
        guard let length = buffer.readInteger(as: UInt32.self), let bytes = buffer.readBytes(length: Int(length)) else {
            throw StoredBytesError()
        }
        return bytes
    }

    private static func readText(_ buffer: inout ByteBuffer) throws -> String {
        let bytes = try readField(&buffer)
        guard let text = String(validating: bytes, as: UTF8.self) else { throw StoredBytesError() }
        return text
    }

    private static func expectEnd(_ buffer: ByteBuffer) throws {
        guard buffer.readableBytes == 0 else { throw StoredBytesError() }
    }
}

/// A stored column does not hold what ``StoredBytes`` writes: the database was changed by something else.
struct StoredBytesError: Error, CustomStringConvertible {
    var description: String { "a stored value of the PostgreSQL state store is malformed" }
}
