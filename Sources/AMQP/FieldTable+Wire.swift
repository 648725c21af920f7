import CRabbitMQ

extension FieldTable {
    /// A table decoded from its AMQP wire form (a 4-byte big-endian length, then the entries), exactly as
    /// librabbitmq decodes the headers of a delivery; `nil` when the bytes are not a table. For tools and fuzzing.
    public init?(wire: [UInt8]) {
        let arena = Arena(pageSize: 4096)
        var table = amqp_table_t()
        var offset = 0
        let status = wire.withUnsafeBytes { raw in
            amqp_decode_table(
                amqp_bytes_t(len: raw.count, bytes: UnsafeMutableRawPointer(mutating: raw.baseAddress)), arena.pool, &table,
                &offset)
        }
        guard status == AMQP_STATUS_OK.rawValue else { return nil }
        self.init(table)
    }

    /// The AMQP wire form of the table, as librabbitmq encodes it; `nil` when it takes more than `limit` bytes.
    public func wire(limit: Int = 131_072) -> [UInt8]? {
        let arena = Arena(pageSize: 4096)
        var table = arena.table(self)
        var buffer = [UInt8](repeating: 0, count: limit)
        var offset = 0
        let status = buffer.withUnsafeMutableBytes { raw in
            amqp_encode_table(amqp_bytes_t(len: raw.count, bytes: raw.baseAddress), &table, &offset)
        }
        guard status == AMQP_STATUS_OK.rawValue else { return nil }
        return Array(buffer.prefix(offset))
    }
}
