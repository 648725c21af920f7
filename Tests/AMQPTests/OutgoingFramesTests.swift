import CRabbitMQ
import Testing

@testable import AMQP

/// The frames the I/O thread writes, encoded back to back in one buffer, read back as the AMQP 0-9-1 wire format.
@Suite("Outgoing frames")
struct OutgoingFramesTests {
    /// One frame as it is on the wire.
    struct Frame: Equatable {
        var type: UInt8
        var channel: UInt16
        var payload: [UInt8]
    }

    /// Splits `bytes` into frames, checking each header's size against its end byte.
    func frames(_ bytes: UnsafeRawBufferPointer) -> [Frame] {
        var frames: [Frame] = []
        var offset = 0
        while offset + 8 <= bytes.count {
            let size = Int(bytes[offset + 3]) << 24 | Int(bytes[offset + 4]) << 16 | Int(bytes[offset + 5]) << 8
                | Int(bytes[offset + 6])
            guard offset + 8 + size <= bytes.count, bytes[offset + 7 + size] == 0xCE else { break }
            frames.append(
                Frame(
                    type: bytes[offset], channel: UInt16(bytes[offset + 1]) << 8 | UInt16(bytes[offset + 2]),
                    payload: Array(bytes[(offset + 7)..<(offset + 7 + size)])))
            offset += 8 + size
        }
        #expect(offset == bytes.count, "the buffer ends with a whole frame")
        return frames
    }

    @Test("a basic.ack is one method frame: class 60, method 80, the tag and the multiple bit")
    func ackFrame() {
        let output = OutgoingFrames(frameMax: 4096)
        var ack = amqp_basic_ack_t(delivery_tag: 0x0102_0304_0506_0708, multiple: 1)
        #expect(output.appendMethod(AMQP_BASIC_ACK_METHOD, &ack, channel: 7) == AMQP_STATUS_OK.rawValue)
        #expect(
            frames(output.bytes) == [
                Frame(type: 1, channel: 7, payload: [0, 60, 0, 80, 1, 2, 3, 4, 5, 6, 7, 8, 1])
            ])
    }

    @Test("a publish is its method, a content header with the body size, and body frames no larger than frame_max")
    func publishFrames() {
        let output = OutgoingFrames(frameMax: 4096)
        var settle = amqp_basic_ack_t(delivery_tag: 1, multiple: 0)
        _ = output.appendMethod(AMQP_BASIC_ACK_METHOD, &settle, channel: 1)
        let arena = Arena()
        var properties = arena.properties(MessageProperties(contentType: "application/json"))
        var method = amqp_basic_publish_t(
            ticket: 0, exchange: arena.bytes("x"), routing_key: arena.bytes("k"), mandatory: 1, immediate: 0)
        let body = (0..<10_000).map { UInt8(truncatingIfNeeded: $0) }
        let status = body.withUnsafeBytes {
            output.appendPublish(&method, properties: &properties, body: $0, channel: 2)
        }
        #expect(status == AMQP_STATUS_OK.rawValue)

        let written = frames(output.bytes)
        #expect(written.map(\.type) == [1, 1, 2, 3, 3, 3])
        #expect(written.dropFirst().allSatisfy { $0.channel == 2 })
        #expect(written[1].payload.prefix(4) == [0, 60, 0, 40], "basic.publish")
        // Class 60, weight 0, body size 10,000 (0x2710), then the property flags: content-type only.
        #expect(written[2].payload.prefix(14) == [0, 60, 0, 0, 0, 0, 0, 0, 0, 0, 0x27, 0x10, 0x80, 0])
        // 4,096 minus the 8 bytes of header and end byte.
        #expect(written[3...].map(\.payload.count) == [4088, 4088, 1824])
        #expect(written[3...].flatMap(\.payload) == body)
    }

    @Test("a publish whose properties do not fit a frame appends nothing, and the buffer stays usable")
    func oversizedHeaderAppendsNothing() {
        let output = OutgoingFrames(frameMax: 4096)
        var ack = amqp_basic_ack_t(delivery_tag: 1, multiple: 0)
        _ = output.appendMethod(AMQP_BASIC_ACK_METHOD, &ack, channel: 1)
        let before = output.count
        let arena = Arena()
        var properties = arena.properties(MessageProperties(headers: ["big": .string(String(repeating: "x", count: 5000))]))
        var method = amqp_basic_publish_t(
            ticket: 0, exchange: arena.bytes(""), routing_key: arena.bytes("k"), mandatory: 0, immediate: 0)
        let status = [UInt8]([1]).withUnsafeBytes {
            output.appendPublish(&method, properties: &properties, body: $0, channel: 1)
        }
        #expect(status != AMQP_STATUS_OK.rawValue)
        #expect(output.count == before)
        #expect(output.appendMethod(AMQP_BASIC_ACK_METHOD, &ack, channel: 1) == AMQP_STATUS_OK.rawValue)
        #expect(frames(output.bytes).count == 2)
    }
}
