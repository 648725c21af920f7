import AMQP
import Testing

/// What a publish must fit before anything is written: librabbitmq's short strings and frame, the broker's body limit.
@Suite struct PublishLimitsTests {
    let limits = PublishLimits(frameMax: 131_072, maxBodySize: 1_000)
    let long = String(repeating: "x", count: 256)

    func problem(exchange: String = "e", routingKey: String = "k", properties: MessageProperties = MessageProperties(), body: Int = 0)
        -> String?
    {
        limits.problem(exchange: exchange, routingKey: routingKey, properties: properties, bodySize: body)
    }

    @Test func anOrdinaryPublishFits() {
        #expect(problem(properties: MessageProperties(contentType: "application/json", messageID: "m", headers: ["a": 1])) == nil)
        #expect(problem(routingKey: String(repeating: "x", count: 255), body: 1_000) == nil)
    }

    @Test func namesAndShortStringsOver255BytesAreRefusedWithoutTheirValue() {
        #expect(problem(exchange: long) == "the exchange name has 256 bytes, over 255")
        #expect(problem(routingKey: long) == "the routing key has 256 bytes, over 255")
        #expect(problem(properties: MessageProperties(messageID: long)) == "the message-id property has 256 bytes, over 255")
        #expect(problem(properties: MessageProperties(appID: String(repeating: "é", count: 128))) != nil, "bytes, not characters")
        #expect(problem(properties: MessageProperties(headers: ["n": [[long: 1]]])) == "a header name has 256 bytes, over 255")
    }

    @Test func aBodyOverTheLimitIsRefused() {
        #expect(problem(body: 1_001) == "the body has 1001 bytes, over the limit of 1000")
        #expect(PublishLimits(frameMax: 131_072).problem(exchange: "", routingKey: "", properties: MessageProperties(), bodySize: 1 << 30) == nil)
    }

    @Test func headersMustFitOneFrameWithTheContentHeader() {
        // A frame of 131,072 bytes leaves 131,050 for the properties; a bytes header costs 1 + 1 + 1 + 4 + n.
        let fits = MessageProperties(headers: ["b": .bytes(Array(repeating: 0, count: 131_050 - 4 - 7))])
        #expect(problem(properties: fits) == nil)
        var over = fits
        over.headers["b"] = .bytes(Array(repeating: 0, count: 131_050 - 4 - 6))
        #expect(problem(properties: over) == "the properties need 131051 bytes, over the 131050 a frame of 131072 holds")
    }

    @Test func everyValueTypeIsSizedAsTheWireCarriesIt() {
        let everything: FieldTable = [
            "t": true, "b": .int8(1), "s": .int16(1), "I": .int32(1), "l": .int64(1), "B": .uint8(1), "u": .uint16(1),
            "i": .uint32(1), "f": .float(1), "d": .double(1), "D": .decimal(scale: 1, value: 1), "S": "ab",
            "R": .rawString([0xFF]), "x": .bytes([1]), "A": [1, [2]], "F": ["k": .void], "T": .timestamp(1), "V": .void,
        ]
        let wire = everything.wire()
        let size = wire?.count ?? 0
        let room = 131_072 - 22
        let exact = PublishLimits(frameMax: size + 22)
        #expect(exact.problem(exchange: "", routingKey: "", properties: MessageProperties(headers: everything), bodySize: 0) == nil)
        let short = PublishLimits(frameMax: size + 21)
        #expect(short.problem(exchange: "", routingKey: "", properties: MessageProperties(headers: everything), bodySize: 0) != nil)
        #expect(size < room)
        #expect(FieldTable(wire: wire ?? []) == everything)
    }
}

/// Each property of the content header counts as the wire carries it, and the first of two too long is the one named.
@Suite struct PublishLimitsPropertyTests {
    static var shortStrings: [(name: String, path: WritableKeyPath<MessageProperties, String?>)] {
        [
            ("content-type", \.contentType), ("content-encoding", \.contentEncoding), ("correlation-id", \.correlationID),
            ("reply-to", \.replyTo), ("expiration", \.expiration), ("message-id", \.messageID), ("type", \.type),
            ("user-id", \.userID), ("app-id", \.appID),
        ]
    }
    let limits = PublishLimits(frameMax: 131_072)

    func problem(_ properties: MessageProperties, limits: PublishLimits? = nil) -> String? {
        (limits ?? self.limits).problem(exchange: "e", routingKey: "k", properties: properties, bodySize: 0)
    }

    @Test(arguments: shortStrings.map(\.name))
    func eachShortStringFits255BytesAndIsNamedAt256(name: String) throws {
        let path = try #require(Self.shortStrings.first { $0.name == name }).path
        var properties = MessageProperties()
        properties[keyPath: path] = String(repeating: "x", count: 255)
        #expect(problem(properties) == nil)
        properties[keyPath: path] = String(repeating: "x", count: 256)
        #expect(problem(properties) == "the \(name) property has 256 bytes, over 255")
    }

    @Test func ofTwoShortStringsTooLongTheFirstInTheContentHeaderIsNamed() {
        for (index, first) in Self.shortStrings.enumerated() {
            for second in Self.shortStrings[(index + 1)...] {
                var properties = MessageProperties()
                properties[keyPath: second.path] = String(repeating: "y", count: 300)
                properties[keyPath: first.path] = String(repeating: "x", count: 256)
                #expect(problem(properties) == "the \(first.name) property has 256 bytes, over 255")
            }
        }
    }

    /// Every property set: each short string of 200 bytes (1 + 200 each), delivery mode and priority (1 each), a
    /// timestamp (8) and a header `h` of an int32 (4 + 1 + 1 + 1 + 4): 1,809 + 2 + 8 + 11 = 1,830 bytes, so a frame of
    /// 1,852 holds them exactly (8 bytes of frame, 14 of the header's own fields) and one of 1,851 does not.
    @Test func everyPropertyCountsUpToTheLastByteOfTheFrame() {
        var properties = MessageProperties(timestamp: 1, deliveryMode: .persistent, headers: ["h": .int32(1)], priority: 9)
        for (_, path) in Self.shortStrings { properties[keyPath: path] = String(repeating: "v", count: 200) }
        #expect(problem(properties, limits: PublishLimits(frameMax: 1_852)) == nil)
        #expect(
            problem(properties, limits: PublishLimits(frameMax: 1_851))
                == "the properties need 1830 bytes, over the 1829 a frame of 1851 holds")
        for (_, path) in Self.shortStrings {
            var shorter = properties
            shorter[keyPath: path] = String(repeating: "v", count: 199)
            #expect(problem(shorter, limits: PublishLimits(frameMax: 1_851)) == nil)
        }
        var noDeliveryMode = properties
        noDeliveryMode.deliveryMode = nil
        #expect(problem(noDeliveryMode, limits: PublishLimits(frameMax: 1_851)) == nil)
        var noPriority = properties
        noPriority.priority = nil
        #expect(problem(noPriority, limits: PublishLimits(frameMax: 1_851)) == nil)
        var noTimestamp = properties
        noTimestamp.timestamp = nil
        #expect(problem(noTimestamp, limits: PublishLimits(frameMax: 1_844)) == nil)
        #expect(problem(noTimestamp, limits: PublishLimits(frameMax: 1_843)) != nil)
    }
}
