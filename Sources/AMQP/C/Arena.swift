import CRabbitMQ
import Foundation

/// Scratch memory for the C structures of outgoing methods and publishes, in a librabbitmq pool.
///
/// Strings, tables and properties are copied in, handed to librabbitmq, and the pool is recycled after each batch
/// of commands, so encoding costs no malloc once the pool's pages exist. Used by one thread only.
final class Arena {
    let pool: UnsafeMutablePointer<amqp_pool_t>

    init(pageSize: Int = 64 * 1024) {
        pool = .allocate(capacity: 1)
        init_amqp_pool(pool, pageSize)
    }

    deinit {
        empty_amqp_pool(pool)
        pool.deallocate()
    }

    /// Makes everything handed out so far invalid and reuses its memory.
    func recycle() {
        recycle_amqp_pool(pool)
    }

    func bytes(_ string: String) -> amqp_bytes_t {
        if let copied = string.utf8.withContiguousStorageIfAvailable({ bytes(UnsafeRawBufferPointer($0)) }) {
            return copied
        }
        return bytes(Array(string.utf8))
    }

    func bytes(_ array: [UInt8]) -> amqp_bytes_t {
        array.withUnsafeBytes { bytes($0) }
    }

    func bytes(_ raw: UnsafeRawBufferPointer) -> amqp_bytes_t {
        guard let source = raw.baseAddress, raw.count > 0 else { return amqp_empty_bytes }
        let target = allocate(UInt8.self, count: raw.count)
        target.update(from: source.assumingMemoryBound(to: UInt8.self), count: raw.count)
        return amqp_bytes_t(len: raw.count, bytes: UnsafeMutableRawPointer(target))
    }

    func table(_ table: FieldTable) -> amqp_table_t {
        guard !table.isEmpty else { return amqp_empty_table }
        let entries = allocate(amqp_table_entry_t.self, count: table.count)
        for (index, entry) in table.entries.enumerated() {
            (entries + index).initialize(to: amqp_table_entry_t(key: bytes(entry.key), value: value(entry.value)))
        }
        return amqp_table_t(num_entries: Int32(table.count), entries: entries)
    }

    func value(_ value: FieldValue) -> amqp_field_value_t {
        var field = amqp_field_value_t()
        func kind(_ kind: amqp_field_value_kind_t) { field.kind = UInt8(kind.rawValue) }
        switch value {
        case .bool(let bool): kind(AMQP_FIELD_KIND_BOOLEAN); field.value.boolean = bool ? 1 : 0
        case .int8(let int): kind(AMQP_FIELD_KIND_I8); field.value.i8 = int
        case .int16(let int): kind(AMQP_FIELD_KIND_I16); field.value.i16 = int
        case .int32(let int): kind(AMQP_FIELD_KIND_I32); field.value.i32 = int
        case .int64(let int): kind(AMQP_FIELD_KIND_I64); field.value.i64 = int
        case .uint8(let int): kind(AMQP_FIELD_KIND_U8); field.value.u8 = int
        case .uint16(let int): kind(AMQP_FIELD_KIND_U16); field.value.u16 = int
        case .uint32(let int): kind(AMQP_FIELD_KIND_U32); field.value.u32 = int
        case .float(let float): kind(AMQP_FIELD_KIND_F32); field.value.f32 = float
        case .double(let double): kind(AMQP_FIELD_KIND_F64); field.value.f64 = double
        case .decimal(let scale, let digits):
            kind(AMQP_FIELD_KIND_DECIMAL)
            field.value.decimal = amqp_decimal_t(decimals: scale, value: digits)
        case .string(let string): kind(AMQP_FIELD_KIND_UTF8); field.value.bytes = bytes(string)
        case .bytes(let array): kind(AMQP_FIELD_KIND_BYTES); field.value.bytes = bytes(array)
        case .rawString(let array): kind(AMQP_FIELD_KIND_UTF8); field.value.bytes = bytes(array)
        case .array(let values):
            kind(AMQP_FIELD_KIND_ARRAY)
            let entries = values.isEmpty ? nil : allocate(amqp_field_value_t.self, count: values.count)
            for (index, element) in values.enumerated() {
                (entries! + index).initialize(to: self.value(element))
            }
            field.value.array = amqp_array_t(num_entries: Int32(values.count), entries: entries)
        case .table(let nested): kind(AMQP_FIELD_KIND_TABLE); field.value.table = table(nested)
        case .timestamp(let seconds): kind(AMQP_FIELD_KIND_TIMESTAMP); field.value.u64 = seconds
        case .void: kind(AMQP_FIELD_KIND_VOID)
        }
        return field
    }

    func properties(_ properties: MessageProperties) -> amqp_basic_properties_t {
        var c = amqp_basic_properties_t()
        var flags: amqp_flags_t = 0
        func string(_ value: String?, _ flag: Int32, _ field: WritableKeyPath<amqp_basic_properties_t, amqp_bytes_t>) {
            guard let value else { return }
            c[keyPath: field] = bytes(value)
            flags |= amqp_flags_t(flag)
        }
        string(properties.contentType, AMQP_BASIC_CONTENT_TYPE_FLAG, \.content_type)
        string(properties.contentEncoding, AMQP_BASIC_CONTENT_ENCODING_FLAG, \.content_encoding)
        if !properties.headers.isEmpty {
            c.headers = table(properties.headers)
            flags |= amqp_flags_t(AMQP_BASIC_HEADERS_FLAG)
        }
        if let mode = properties.deliveryMode {
            c.delivery_mode = mode.rawValue
            flags |= amqp_flags_t(AMQP_BASIC_DELIVERY_MODE_FLAG)
        }
        if let priority = properties.priority {
            c.priority = priority
            flags |= amqp_flags_t(AMQP_BASIC_PRIORITY_FLAG)
        }
        string(properties.correlationID, AMQP_BASIC_CORRELATION_ID_FLAG, \.correlation_id)
        string(properties.replyTo, AMQP_BASIC_REPLY_TO_FLAG, \.reply_to)
        string(properties.expiration, AMQP_BASIC_EXPIRATION_FLAG, \.expiration)
        string(properties.messageID, AMQP_BASIC_MESSAGE_ID_FLAG, \.message_id)
        if let timestamp = properties.timestamp {
            c.timestamp = timestamp
            flags |= amqp_flags_t(AMQP_BASIC_TIMESTAMP_FLAG)
        }
        string(properties.type, AMQP_BASIC_TYPE_FLAG, \.type)
        string(properties.userID, AMQP_BASIC_USER_ID_FLAG, \.user_id)
        string(properties.appID, AMQP_BASIC_APP_ID_FLAG, \.app_id)
        c._flags = flags
        return c
    }

    private func allocate<T>(_ type: T.Type, count: Int) -> UnsafeMutablePointer<T> {
        guard let memory = amqp_pool_alloc(pool, MemoryLayout<T>.stride * count) else {
            fatalError("librabbitmq could not allocate \(MemoryLayout<T>.stride * count) bytes")
        }
        return memory.bindMemory(to: T.self, capacity: count)
    }
}
