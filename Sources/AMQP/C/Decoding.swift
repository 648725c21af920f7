import CRabbitMQ
import Foundation

// Copies of librabbitmq's decoded structures into Swift values. Decoded memory lives in librabbitmq's pools until
// amqp_maybe_release_buffers, so everything is copied before the I/O thread releases it.

extension String {
    init(_ bytes: amqp_bytes_t) {
        guard bytes.len > 0, let start = bytes.bytes else {
            self = ""
            return
        }
        self = String(decoding: UnsafeRawBufferPointer(start: start, count: bytes.len), as: UTF8.self)
    }
}

extension Array where Element == UInt8 {
    init(_ bytes: amqp_bytes_t) {
        guard bytes.len > 0, let start = bytes.bytes else {
            self = []
            return
        }
        self = Array(UnsafeRawBufferPointer(start: start, count: bytes.len))
    }
}

extension FieldTable {
    init(_ table: amqp_table_t, depth: Int = 0) {
        self.init()
        guard table.num_entries > 0, let entries = table.entries else { return }
        reserveCapacity(Int(table.num_entries))
        for entry in UnsafeBufferPointer(start: entries, count: Int(table.num_entries)) {
            appendDecoded(key: String(entry.key), value: FieldValue(entry.value, depth: depth + 1))
        }
    }
}

extension FieldValue {
    /// How deep received tables and arrays nest before the rest is cut to ``void``: deep enough for any real
    /// header, shallow enough that recursion over a value (copying, comparing, mapping to JSON) stays small.
    static let maximumDecodedDepth = 64

    init(_ field: amqp_field_value_t, depth: Int = 0) {
        switch amqp_field_value_kind_t(UInt32(field.kind)) {
        case AMQP_FIELD_KIND_BOOLEAN: self = .bool(field.value.boolean != 0)
        case AMQP_FIELD_KIND_I8: self = .int8(field.value.i8)
        case AMQP_FIELD_KIND_I16: self = .int16(field.value.i16)
        case AMQP_FIELD_KIND_I32: self = .int32(field.value.i32)
        case AMQP_FIELD_KIND_I64: self = .int64(field.value.i64)
        case AMQP_FIELD_KIND_U8: self = .uint8(field.value.u8)
        case AMQP_FIELD_KIND_U16: self = .uint16(field.value.u16)
        case AMQP_FIELD_KIND_U32: self = .uint32(field.value.u32)
        // RabbitMQ passes headers through unparsed, so another client's 'L' can arrive; keep its bits.
        case AMQP_FIELD_KIND_U64: self = .int64(Int64(bitPattern: field.value.u64))
        case AMQP_FIELD_KIND_F32: self = .float(field.value.f32)
        case AMQP_FIELD_KIND_F64: self = .double(field.value.f64)
        case AMQP_FIELD_KIND_DECIMAL:
            self = .decimal(scale: field.value.decimal.decimals, value: field.value.decimal.value)
        case AMQP_FIELD_KIND_UTF8:
            let bytes = [UInt8](field.value.bytes)
            self = String(validating: bytes, as: UTF8.self).map(FieldValue.string) ?? .rawString(bytes)
        case AMQP_FIELD_KIND_BYTES: self = .bytes([UInt8](field.value.bytes))
        case AMQP_FIELD_KIND_ARRAY where depth < Self.maximumDecodedDepth:
            let array = field.value.array
            if array.num_entries > 0, let entries = array.entries {
                self = .array(
                    UnsafeBufferPointer(start: entries, count: Int(array.num_entries)).map {
                        FieldValue($0, depth: depth + 1)
                    })
            } else {
                self = .array([])
            }
        case AMQP_FIELD_KIND_TABLE where depth < Self.maximumDecodedDepth:
            self = .table(FieldTable(field.value.table, depth: depth))
        case AMQP_FIELD_KIND_TIMESTAMP: self = .timestamp(field.value.u64)
        default: self = .void
        }
    }
}

extension MessageProperties {
    init(_ c: amqp_basic_properties_t) {
        self.init()
        let flags = c._flags
        func has(_ flag: Int32) -> Bool { flags & amqp_flags_t(flag) != 0 }
        func string(_ flag: Int32, _ bytes: amqp_bytes_t) -> String? { has(flag) ? String(bytes) : nil }
        contentType = string(AMQP_BASIC_CONTENT_TYPE_FLAG, c.content_type)
        contentEncoding = string(AMQP_BASIC_CONTENT_ENCODING_FLAG, c.content_encoding)
        if has(AMQP_BASIC_HEADERS_FLAG) { headers = FieldTable(c.headers) }
        if has(AMQP_BASIC_DELIVERY_MODE_FLAG) { deliveryMode = DeliveryMode(rawValue: c.delivery_mode) }
        if has(AMQP_BASIC_PRIORITY_FLAG) { priority = c.priority }
        correlationID = string(AMQP_BASIC_CORRELATION_ID_FLAG, c.correlation_id)
        replyTo = string(AMQP_BASIC_REPLY_TO_FLAG, c.reply_to)
        expiration = string(AMQP_BASIC_EXPIRATION_FLAG, c.expiration)
        messageID = string(AMQP_BASIC_MESSAGE_ID_FLAG, c.message_id)
        if has(AMQP_BASIC_TIMESTAMP_FLAG) { timestamp = c.timestamp }
        type = string(AMQP_BASIC_TYPE_FLAG, c.type)
        userID = string(AMQP_BASIC_USER_ID_FLAG, c.user_id)
        appID = string(AMQP_BASIC_APP_ID_FLAG, c.app_id)
    }
}

extension AMQPError {
    /// The error for a librabbitmq status code, with the library's own message.
    static func library(_ status: Int32) -> AMQPError {
        .library(status: status, message: String(cString: amqp_error_string2(status)))
    }

    /// The error for an openChannel() when all `count` channel numbers are in use.
    static func noFreeChannel(_ count: Int) -> AMQPError {
        .library(status: AMQP_STATUS_INVALID_PARAMETER.rawValue, message: "all \(count) channel numbers are in use")
    }

    /// The error for connection.close or channel.close, from the decoded method.
    static func closing(_ method: amqp_method_t) -> AMQPError {
        switch method.id {
        case AMQP_CONNECTION_CLOSE_METHOD:
            let close = method.decoded.assumingMemoryBound(to: amqp_connection_close_t.self).pointee
            return .connectionClosed(replyCode: close.reply_code, replyText: String(close.reply_text))
        case AMQP_CHANNEL_CLOSE_METHOD:
            let close = method.decoded.assumingMemoryBound(to: amqp_channel_close_t.self).pointee
            return .channelClosed(replyCode: close.reply_code, replyText: String(close.reply_text))
        default:
            return .library(AMQP_STATUS_UNEXPECTED_STATE.rawValue)
        }
    }
}
