import NotificationEvents
import Testing

@Suite struct ActionIdentifierTests {
    @Test func appleConstantsMapToBuiltInActions() {
        #expect(ActionIdentifier(rawValue: "com.apple.UNNotificationDefaultActionIdentifier") == .default)
        #expect(ActionIdentifier(rawValue: "com.apple.UNNotificationDismissActionIdentifier") == .dismiss)
        #expect(ActionIdentifier(rawValue: "rotate-twenty-degrees-action") == .custom("rotate-twenty-degrees-action"))
    }

    @Test(arguments: ["com.apple.UNNotificationDefaultActionIdentifier", "com.apple.UNNotificationDismissActionIdentifier", "reset-rotation-action"])
    func rawValueRoundTrips(raw: String) {
        #expect(ActionIdentifier(rawValue: raw).rawValue == raw)
    }
}
