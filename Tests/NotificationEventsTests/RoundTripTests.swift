import Foundation
@testable import NotificationEvents
import Testing

/// Every type of the contract comes back from its own bytes unchanged, through the strict decoders.
@Suite struct RoundTripTests {
    @Test(arguments: Samples.triggers.indices)
    func responseEventWithEachTriggerKind(trigger: Int) throws {
        let event = Samples.response(trigger: Samples.triggers[trigger])
        #expect(try EventCodec.decodeResponseEvent(EventCodec.encode(event)) == event)
    }

    @Test(arguments: [
        (ActionIdentifier.default, String?.none), (.dismiss, nil), (.custom("reply-action"), "On my way! 🚲"),
        (.custom("reply-action"), ""), (.custom("rotate-twenty-degrees-action"), nil),
    ])
    func responseEventWithEachActionKind(action: ActionIdentifier, userText: String?) throws {
        let event = Samples.response(action: action, userText: userText)
        let decoded = try EventCodec.decodeResponseEvent(EventCodec.encode(event))
        #expect(decoded == event)
        #expect(decoded.data.isTextInput == (userText != nil))
    }

    @Test func responseEventWithOnlyRequiredFields() throws {
        let event = NotificationResponseEvent(
            id: "e", source: "s", type: EventType.notificationResponse, datacontenttype: nil,
            data: NotificationResponse(
                actionIdentifier: .default,
                notification: Notification(
                    date: Samples.delivered,
                    request: NotificationRequest(identifier: "r", content: NotificationContent(categoryIdentifier: "")))))
        #expect(try EventCodec.decodeResponseEvent(EventCodec.encode(event)) == event)
    }

    @Test(arguments: ResponseOption.allCases)
    func actionSetUpdateEventWithEachResponseOption(option: ResponseOption) throws {
        let event = Samples.update(responseOption: option)
        #expect(try EventCodec.decodeActionSetUpdateEvent(EventCodec.encode(event)) == event)
    }

    @Test(arguments: [
        NotificationLifecycleChange.Change.removedPending, .removedDelivered, .replaced(by: Samples.replacement),
        .replaced(by: .init(date: Samples.delivered, categoryIdentifier: "")),
    ])
    func lifecycleEventWithEachChange(change: NotificationLifecycleChange.Change) throws {
        let event = Samples.lifecycle(change: change)
        #expect(try EventCodec.decodeLifecycleEvent(EventCodec.encode(event)) == event)
    }

    @Test func deviceCommandEvents() throws {
        let dismissal = Samples.command(Dismissal.self)
        #expect(try EventCodec.decodeDeviceCommandEvent(EventCodec.encode(dismissal), as: Dismissal.self) == dismissal)
        var removal = Samples.command(Removal.self)
        removal.time = nil
        removal.subject = nil
        removal.datacontenttype = nil
        removal.data.categoryIdentifier = ""
        removal.data.version = .max
        #expect(try EventCodec.decodeDeviceCommandEvent(EventCodec.encode(removal), as: Removal.self) == removal)
    }

    @Test func categoriesWithEveryOptionAndATextInputAction() throws {
        #expect(try EventCodec.decodeCategories(EventCodec.encode(Samples.categories)) == Samples.categories)
    }

    @Test(arguments: DeadLetterReason.allCases)
    func deadLetterInfoWithEachReason(reason: DeadLetterReason) throws {
        let info = Samples.deadLetter(reason: reason)
        #expect(try EventCodec.decodeDeadLetterInfo(EventCodec.encode(info)) == info)
        #expect(try DeadLetterInfo(headers: info.headers) == info)
    }

    @Test(arguments: [
        JSONValue.null, .bool(false), .integer(Int64.min), .integer(Int64.max), .number(-0.5), .number(1e300),
        .string("\u{0}\"\\/\u{1F534}"), .array([]), .object([:]),
        .object(["é": .array([.null, .object(["e\u{301}x": .number(2.5)])])]),
    ])
    func jsonValueOfEachKind(value: JSONValue) throws {
        #expect(try EventCodec.decode(JSONValue.self, from: EventCodec.encode(value)) == value)
    }

    /// Others decode with Foundation's JSONDecoder through `EventCodec.decoder`; it reads what the contract writes.
    @Test func foundationDecoderReadsWhatTheCodecWrites() throws {
        let event = Samples.response(userText: "typed")
        #expect(try EventCodec.decoder.decode(NotificationResponseEvent.self, from: Data(EventCodec.encode(event))) == event)
        let update = Samples.update()
        #expect(try EventCodec.decoder.decode(ActionSetUpdateEvent.self, from: Data(EventCodec.encode(update))) == update)
    }
}
