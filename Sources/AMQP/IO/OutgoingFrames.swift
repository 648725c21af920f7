import CRabbitMQ
import Glibc

/// The frames one pass of the I/O thread writes, encoded back to back so that they leave in as few writes as the
/// socket allows. Its memory is kept and reused from pass to pass. Used by the I/O thread only.
///
/// A frame is a 7-byte header (type, channel, payload size, big-endian), the payload and the end byte 0xCE; the
/// payloads are encoded by librabbitmq (`amqp_encode_method`, `amqp_encode_properties`), as `amqp_send_frame` does.
final class OutgoingFrames {
    private static let headerSize = 7
    private static let overhead = headerSize + 1

    /// The negotiated frame size: no frame, header and end byte included, may exceed it.
    let frameMax: Int
    private var storage: UnsafeMutableRawPointer
    private var capacity: Int
    /// How many bytes are encoded.
    private(set) var count = 0

    init(frameMax: Int) {
        self.frameMax = frameMax
        capacity = 4 * frameMax
        storage = .allocate(byteCount: capacity, alignment: 8)
    }

    deinit {
        storage.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    /// The encoded frames; valid until the next append.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: storage, count: count) }

    /// Forgets every frame, keeping the memory.
    func removeAll() {
        count = 0
    }

    /// Appends a method frame; `decoded` points to the method's librabbitmq structure (`amqp_basic_ack_t`...).
    /// Returns `AMQP_STATUS_OK`, or librabbitmq's encoding failure (a table or string too large for a frame), in
    /// which case nothing was appended.
    func appendMethod(_ id: amqp_method_number_t, _ decoded: UnsafeMutableRawPointer, channel: UInt16) -> Int32 {
        let payload = reserveFrame()
        store(id, at: payload)
        let encoded = amqp_encode_method(id, decoded, amqp_bytes_t(len: frameMax - Self.overhead - 4, bytes: payload + 4))
        guard encoded >= 0 else { return encoded }
        closeFrame(type: AMQP_FRAME_METHOD, channel: channel, payloadSize: 4 + Int(encoded))
        return AMQP_STATUS_OK.rawValue
    }

    /// Appends basic.publish (`method` points to its `amqp_basic_publish_t`), its content header and its body in
    /// frames of at most ``frameMax``, as `amqp_basic_publish` writes them. Returns `AMQP_STATUS_OK` or
    /// librabbitmq's encoding failure, in which case nothing was appended.
    func appendPublish(
        _ method: UnsafeMutableRawPointer, properties: UnsafeMutableRawPointer, body: UnsafeRawBufferPointer,
        channel: UInt16
    ) -> Int32 {
        let start = count
        let status = appendMethod(AMQP_BASIC_PUBLISH_METHOD, method, channel: channel)
        guard status == AMQP_STATUS_OK.rawValue else { return status }

        let payload = reserveFrame()
        store(UInt16(AMQP_BASIC_CLASS), at: payload)
        store(UInt16(0), at: payload + 2)  // weight
        store(UInt64(body.count), at: payload + 4)
        let encoded = amqp_encode_properties(
            UInt16(AMQP_BASIC_CLASS), properties, amqp_bytes_t(len: frameMax - Self.overhead - 12, bytes: payload + 12))
        guard encoded >= 0 else {
            count = start
            return encoded
        }
        closeFrame(type: AMQP_FRAME_HEADER, channel: channel, payloadSize: 12 + Int(encoded))

        let pieceSize = frameMax - Self.overhead
        let pieces = (body.count + pieceSize - 1) / pieceSize
        reserve(body.count + pieces * Self.overhead)
        var offset = 0
        while offset < body.count {
            let size = min(pieceSize, body.count - offset)
            (storage + count + Self.headerSize).copyMemory(from: body.baseAddress! + offset, byteCount: size)
            closeFrame(type: AMQP_FRAME_BODY, channel: channel, payloadSize: size)
            offset += size
        }
        return AMQP_STATUS_OK.rawValue
    }

    /// Makes room for one frame of at most ``frameMax`` bytes at the end; returns where its payload goes.
    private func reserveFrame() -> UnsafeMutableRawPointer {
        reserve(frameMax)
        return storage + count + Self.headerSize
    }

    /// Writes the header and end byte of the frame whose payload was just encoded after ``count``, and counts it.
    private func closeFrame(type: Int32, channel: UInt16, payloadSize: Int) {
        let frame = storage + count
        frame.storeBytes(of: UInt8(type), as: UInt8.self)
        store(channel, at: frame + 1)
        store(UInt32(payloadSize), at: frame + 3)
        (frame + Self.headerSize + payloadSize).storeBytes(of: UInt8(AMQP_FRAME_END), as: UInt8.self)
        count += Self.overhead + payloadSize
    }

    private func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        capacity = max(2 * capacity, count + extra)
        let grown = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        grown.copyMemory(from: storage, byteCount: count)
        storage.deallocate()
        storage = grown
    }

    private func store<Value: FixedWidthInteger>(_ value: Value, at address: UnsafeMutableRawPointer) {
        address.storeBytes(of: value.bigEndian, toByteOffset: 0, as: Value.self)
    }
}
