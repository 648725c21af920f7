import Foundation
import NotificationEvents

/// Values of every contract type, for round trips and golden bytes.
enum Samples {
    /// 2026-11-20T09:00:00Z.
    static let delivered = Date(timeIntervalSince1970: 1_795_165_200)

    static let triggers: [NotificationTrigger?] = [
        nil,
        .push,
        .timeInterval(seconds: 5, repeats: false),
        .timeInterval(seconds: 0.25, repeats: true),
        .calendar(dateComponents: ["hour": 9, "minute": 30, "weekday": 2], repeats: true),
        .location(
            region: CircularRegion(identifier: "office", latitude: 52.52, longitude: 13.405, radius: 100,
                                   notifyOnEntry: true, notifyOnExit: false),
            repeats: false),
        .location(region: CircularRegion(identifier: "", latitude: -90, longitude: 180, radius: 0), repeats: true),
    ]

    static func content(categoryIdentifier: String = "red-category") -> NotificationContent {
        NotificationContent(
            title: "Red", subtitle: "", body: "A red square", badge: 1, sound: "default",
            categoryIdentifier: categoryIdentifier, threadIdentifier: "squares", targetContentIdentifier: "",
            userInfo: [
                "colour": .string("red"), "angle": .integer(-20), "scale": .number(1.5), "shown": .bool(true),
                "none": .null, "tags": .array([.string("a"), .integer(2)]), "nested": .object(["x": .number(0.25)]),
            ])
    }

    static func response(
        action: ActionIdentifier = .custom("rotate-twenty-degrees-action"), userText: String? = nil,
        trigger: NotificationTrigger? = .push, content: NotificationContent = content()
    ) -> NotificationResponseEvent {
        NotificationResponseEvent(
            id: "evt-0002", source: "/ios/red-green", type: EventType.notificationResponse,
            time: delivered.addingTimeInterval(5.125), subject: "red-0001",
            data: NotificationResponse(
                actionIdentifier: action, userText: userText,
                notification: Notification(
                    date: delivered,
                    request: NotificationRequest(identifier: "red-0001", content: content, trigger: trigger))))
    }

    static let replacement = NotificationLifecycleChange.Replacement(
        date: delivered.addingTimeInterval(300.5), categoryIdentifier: "green-category")

    static func lifecycle(
        change: NotificationLifecycleChange.Change = .replaced(by: replacement)
    ) -> NotificationLifecycleEvent {
        NotificationLifecycleEvent(
            id: "red-0001/changed", source: "/ios/red-green", type: EventType.notificationLifecycle,
            time: delivered.addingTimeInterval(300), subject: "red-0001",
            data: NotificationLifecycleChange(
                requestIdentifier: "red-0001", change: change, date: delivered.addingTimeInterval(300)))
    }

    static let replyAction = NotificationAction(
        identifier: "reply-action", title: "Reply", options: NotificationAction.Option.allCases,
        textInput: .init(buttonTitle: "Send", placeholder: "Message"))

    static func update(responseOption: ResponseOption = .doNotDismiss) -> ActionSetUpdateEvent {
        ActionSetUpdateEvent(
            id: ActionSetUpdateEvent.id(causedBy: "evt-0002"), source: "/responder", type: EventType.actionSetUpdated,
            time: delivered.addingTimeInterval(6), subject: "red-0001",
            data: ActionSetUpdate(
                requestIdentifier: "red-0001", categoryIdentifier: "red-category", causationId: "evt-0002",
                responseOption: responseOption,
                actions: [
                    NotificationAction(identifier: "rotate-twenty-degrees-action", title: "Rotate 20°"),
                    NotificationAction(identifier: "reset-rotation-action", title: "Reset rotation", options: [.destructive]),
                    replyAction,
                ],
                version: 2))
    }

    static func command<Kind>(_ kind: Kind.Type) -> CloudEvent<DeviceCommand<Kind>> {
        CloudEvent(
            id: CloudEvent<DeviceCommand<Kind>>.commandID(causedBy: "evt-0002"), source: "/responder",
            type: Kind.eventType, time: delivered.addingTimeInterval(6), subject: "red-0001",
            data: DeviceCommand(
                requestIdentifier: "red-0001", categoryIdentifier: "red-category", causationId: "evt-0002", version: 2))
    }

    static let categories = NotificationCategories(categories: [
        NotificationCategory(
            identifier: "red-category",
            actions: [NotificationAction(identifier: "rotate-twenty-degrees-action", title: "Rotate 20°"), replyAction],
            intentIdentifiers: ["INSendMessageIntent"], options: NotificationCategory.Option.allCases),
        NotificationCategory(identifier: "plain-category", actions: []),
    ])

    static func deadLetter(reason: DeadLetterReason = .invalidField) -> DeadLetterInfo {
        DeadLetterInfo(
            reason: reason, detail: "data.notification.request.identifier: missing", originalExchange: "notifications",
            originalRoutingKey: "notification.response", attempts: 3, firstFailure: delivered.addingTimeInterval(5.125),
            lastFailure: delivered.addingTimeInterval(70), worker: "responder-7f9c")
    }
}
