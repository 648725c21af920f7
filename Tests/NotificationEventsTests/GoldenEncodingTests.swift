import Foundation
import NotificationEvents
import Testing

/// The codec writes the same bytes for the same value (sorted keys, RFC 3339 dates), so golden files diff cleanly.
@Suite struct GoldenEncodingTests {
    @Test func responseEventBytes() {
        let event = Samples.response(
            userText: "On my way!", trigger: .calendar(dateComponents: ["hour": 9, "minute": 30], repeats: true))
        #expect(String(decoding: EventCodec.encode(event), as: UTF8.self) == #"""
            {"data":{"actionIdentifier":"rotate-twenty-degrees-action","notification":{"date":"2026-11-20T09:00:00Z","request":{"content":{"badge":1,"body":"A red square","categoryIdentifier":"red-category","sound":"default","subtitle":"","targetContentIdentifier":"","threadIdentifier":"squares","title":"Red","userInfo":{"angle":-20,"colour":"red","nested":{"x":0.25},"none":null,"scale":1.5,"shown":true,"tags":["a",2]}},"identifier":"red-0001","trigger":{"dateComponents":{"hour":9,"minute":30},"repeats":true,"type":"calendar"}}},"userText":"On my way!"},"datacontenttype":"application/json","id":"evt-0002","source":"/ios/red-green","specversion":"1.0","subject":"red-0001","time":"2026-11-20T09:00:05.125Z","type":"notification.response.v1"}
            """#)
    }

    @Test func actionSetUpdateEventBytes() {
        #expect(String(decoding: EventCodec.encode(Samples.update()), as: UTF8.self) == #"""
            {"data":{"actions":[{"identifier":"rotate-twenty-degrees-action","options":[],"title":"Rotate 20°"},{"identifier":"reset-rotation-action","options":["destructive"],"title":"Reset rotation"},{"identifier":"reply-action","options":["foreground","destructive","authenticationRequired"],"textInput":{"buttonTitle":"Send","placeholder":"Message"},"title":"Reply"}],"categoryIdentifier":"red-category","causationId":"evt-0002","requestIdentifier":"red-0001","responseOption":"doNotDismiss","version":2},"datacontenttype":"application/json","id":"evt-0002/actions-updated","source":"/responder","specversion":"1.0","subject":"red-0001","time":"2026-11-20T09:00:06Z","type":"notification.actions.updated.v1"}
            """#)
    }

    @Test func lifecycleEventBytes() {
        #expect(String(decoding: EventCodec.encode(Samples.lifecycle()), as: UTF8.self) == #"""
            {"data":{"change":"replaced","date":"2026-11-20T09:05:00Z","replacement":{"categoryIdentifier":"green-category","date":"2026-11-20T09:05:00.500Z"},"requestIdentifier":"red-0001"},"datacontenttype":"application/json","id":"red-0001/changed","source":"/ios/red-green","specversion":"1.0","subject":"red-0001","time":"2026-11-20T09:05:00Z","type":"notification.lifecycle.v1"}
            """#)
        #expect(String(decoding: EventCodec.encode(Samples.lifecycle(change: .removedPending).data), as: UTF8.self)
            == #"{"change":"removedPending","date":"2026-11-20T09:05:00Z","requestIdentifier":"red-0001"}"#)
    }

    @Test func deviceCommandEventBytes() {
        #expect(String(decoding: EventCodec.encode(Samples.command(Dismissal.self)), as: UTF8.self) == #"""
            {"data":{"categoryIdentifier":"red-category","causationId":"evt-0002","requestIdentifier":"red-0001","version":2},"datacontenttype":"application/json","id":"evt-0002/dismissed","source":"/responder","specversion":"1.0","subject":"red-0001","time":"2026-11-20T09:00:06Z","type":"notification.dismissed.v1"}
            """#)
        #expect(String(decoding: EventCodec.encode(Samples.command(Removal.self)), as: UTF8.self) == #"""
            {"data":{"categoryIdentifier":"red-category","causationId":"evt-0002","requestIdentifier":"red-0001","version":2},"datacontenttype":"application/json","id":"evt-0002/removed","source":"/responder","specversion":"1.0","subject":"red-0001","time":"2026-11-20T09:00:06Z","type":"notification.removed.v1"}
            """#)
    }

    @Test func deadLetterInfoBytes() {
        #expect(String(decoding: EventCodec.encode(Samples.deadLetter()), as: UTF8.self) == #"""
            {"x-responder-attempts":3,"x-responder-detail":"data.notification.request.identifier: missing","x-responder-first-failure":"2026-11-20T09:00:05.125Z","x-responder-last-failure":"2026-11-20T09:01:10Z","x-responder-original-exchange":"notifications","x-responder-original-routing-key":"notification.response","x-responder-reason":"invalid-field","x-responder-worker":"responder-7f9c"}
            """#)
    }

    /// Dictionaries iterate in a different order in every process and after every change; the bytes must not.
    @Test func bytesDoNotDependOnDictionaryOrder() {
        let keys = (0..<64).map { "key-\($0)" }
        let forwards = Dictionary(uniqueKeysWithValues: keys.map { ($0, JSONValue.string($0)) })
        var backwards: [String: JSONValue] = [:]
        for key in keys.reversed() { backwards[key] = .string(key) }
        let first = EventCodec.encode(Samples.response(content: NotificationContent(categoryIdentifier: "c", userInfo: forwards)))
        let second = EventCodec.encode(Samples.response(content: NotificationContent(categoryIdentifier: "c", userInfo: backwards)))
        #expect(first == second)
        let text = String(decoding: first, as: UTF8.self)
        let positions = keys.sorted().compactMap { text.range(of: "\"\($0)\":")?.lowerBound }
        #expect(positions.count == keys.count)
        #expect(positions == positions.sorted())
    }

    @Test func decodingAndEncodingAgainGivesTheSameBytes() throws {
        let bytes = EventCodec.encode(Samples.update())
        #expect(EventCodec.encode(try EventCodec.decodeActionSetUpdateEvent(bytes)) == bytes)
    }
}
