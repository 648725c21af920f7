import AMQP
import NotificationEvents
import Responder
import ResponderIntake
import Testing

/// The check of the pipeline's properties measures them without making AMQP's, and says exactly what the check of
/// `BasicProperties(properties)` says: the same sizes refused, with the same text.
@Suite struct MessagePropertiesLimitsTests {
    static var shortStrings: [WritableKeyPath<MessageProperties, String?>] {
        [\.contentType, \.contentEncoding, \.correlationId, \.messageId, \.type, \.appId]
    }
    static let full = MessageProperties(
        contentType: "application/cloudevents+json", contentEncoding: "utf-8", messageId: "evt-1",
        correlationId: "evt-0", type: "notification.response.v1", appId: "red-green", timestamp: -5,
        deliveryMode: .transient,
        headers: [
            "traceparent": .string("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"), "n": .int64(2),
            "ratio": .double(0.5), "flag": .bool(true), "nothing": .void,
            "list": .array([.int64(1), .string("two"), .table([:])]), "nested": .table(["b": .int64(2), "a": .array([])]),
        ])

    func problems(_ properties: MessageProperties, _ limits: PublishLimits) -> (measured: String?, made: String?) {
        (
            limits.problem(exchange: "e", routingKey: "k", properties: properties, bodySize: 10),
            limits.problem(exchange: "e", routingKey: "k", properties: BasicProperties(properties), bodySize: 10)
        )
    }

    /// The smallest frame that holds `properties`, by the check of AMQP's properties.
    func smallestFrame(for properties: MessageProperties) throws -> Int {
        let made = BasicProperties(properties)
        return try #require(
            (22...10_000).first {
                PublishLimits(frameMax: $0).problem(exchange: "", routingKey: "", properties: made, bodySize: 0) == nil
            })
    }

    @Test(arguments: [
        full, MessageProperties(), MessageProperties(timestamp: 1), MessageProperties(deliveryMode: .persistent),
        MessageProperties(headers: ["h": .string("v")]), MessageProperties(messageId: "m", headers: full.headers),
    ])
    func refusedAtTheSameFrameWithTheSameText(properties: MessageProperties) throws {
        let frame = try smallestFrame(for: properties)
        for frameMax in [frame - 1, frame] {
            let (measured, made) = problems(properties, PublishLimits(frameMax: frameMax))
            #expect(measured == made)
            #expect((measured == nil) == (frameMax == frame))
        }
    }

    @Test func eachShortStringIsRefusedAt256BytesWithTheSameText() {
        let limits = PublishLimits(frameMax: 131_072)
        for path in Self.shortStrings {
            for count in [255, 256] {
                var properties = Self.full
                properties[keyPath: path] = String(repeating: "é", count: count / 2) + (count.isMultiple(of: 2) ? "" : "x")
                let (measured, made) = problems(properties, limits)
                #expect(measured == made)
                #expect((measured == nil) == (count == 255), "\(path): \(measured ?? "fits")")
            }
            var twoTooLong = Self.full
            twoTooLong.appId = String(repeating: "a", count: 300)
            twoTooLong[keyPath: path] = String(repeating: "x", count: 256)
            #expect(problems(twoTooLong, limits).measured == problems(twoTooLong, limits).made)
        }
    }

    @Test func headersBodiesAndNamesAreRefusedWithTheSameText() {
        let limits = PublishLimits(frameMax: 131_072, maxBodySize: 10)
        var nestedName = Self.full
        nestedName.headers["deep"] = .array([.table([String(repeating: "k", count: 256): .void])])
        let cases: [(exchange: String, routingKey: String, properties: MessageProperties, body: Int)] = [
            ("e", "k", nestedName, 0), (String(repeating: "e", count: 256), "k", Self.full, 0),
            ("e", String(repeating: "k", count: 256), Self.full, 0), ("e", "k", Self.full, 11),
        ]
        for (exchange, routingKey, properties, body) in cases {
            let measured = limits.problem(exchange: exchange, routingKey: routingKey, properties: properties, bodySize: body)
            let made = limits.problem(
                exchange: exchange, routingKey: routingKey, properties: BasicProperties(properties), bodySize: body)
            #expect(measured != nil)
            #expect(measured == made)
        }
    }
}
