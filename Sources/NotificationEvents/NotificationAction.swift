/// A button a notification shows, as `UNNotificationAction`; with `textInput` set it is the text-input form,
/// as `UNTextInputNotificationAction`.
public struct NotificationAction: Sendable, Hashable, Codable {
    /// What the button does, as `UNNotificationActionOptions`.
    public enum Option: String, Sendable, Hashable, Codable, CaseIterable {
        case foreground, destructive, authenticationRequired
    }

    /// The text field a text-input action shows.
    public struct TextInput: Sendable, Hashable, Codable {
        public var buttonTitle: String
        public var placeholder: String

        public init(buttonTitle: String, placeholder: String) {
            self.buttonTitle = buttonTitle
            self.placeholder = placeholder
        }
    }

    public var identifier: String
    public var title: String
    public var options: [Option]
    public var textInput: TextInput?

    public init(identifier: String, title: String, options: [Option] = [], textInput: TextInput? = nil) {
        self.identifier = identifier
        self.title = title
        self.options = options
        self.textInput = textInput
    }
}
