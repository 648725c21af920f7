/// A button a notification shows, as `UNNotificationAction`; with `textInput` set it is the text-input form,
/// as `UNTextInputNotificationAction`.
public struct NotificationAction: Sendable, Hashable, Codable, ContractObject {
    /// What the button does, as `UNNotificationActionOptions`.
    public enum Option: String, Sendable, Hashable, Codable, CaseIterable, ContractEnum {
        /// Pressing the button opens the app.
        case foreground
        /// The button is shown as destructive.
        case destructive
        /// The device must be unlocked first.
        case authenticationRequired

        /// Reads the raw value; an unknown one is refused with the list of allowed values.
        public init(from decoder: any Decoder) throws { try self.init(contractFrom: decoder) }
    }

    /// The text field a text-input action shows.
    public struct TextInput: Sendable, Hashable, Codable {
        /// The title of the send button next to the field.
        public var buttonTitle: String
        /// The text shown in the empty field.
        public var placeholder: String

        /// A text field with a send button titled `buttonTitle`.
        public init(buttonTitle: String, placeholder: String) {
            self.buttonTitle = buttonTitle
            self.placeholder = placeholder
        }
    }

    /// What a response names as its action identifier; never empty, unique within an action set.
    public var identifier: String
    /// The button's title.
    public var title: String
    /// No option appears twice; absent in JSON means none.
    public var options: [Option]
    /// Set for the text-input form.
    public var textInput: TextInput?

    /// A button; with `textInput` it is the text-input form.
    public init(identifier: String, title: String, options: [Option] = [], textInput: TextInput? = nil) {
        self.identifier = identifier
        self.title = title
        self.options = options
        self.textInput = textInput
    }

    private enum CodingKeys: String, CodingKey {
        case identifier, title, options, textInput
    }

    /// Reads an action; its identifier must not be empty and no option may appear twice.
    public init(from decoder: any Decoder) throws {
        try self.init(fields: decoder.container(keyedBy: CodingKeys.self))
    }

    static func read(from tape: JSONTape, at node: Int) throws -> Self {
        try Self(fields: TapeObject(tape: tape, objectAt: node))
    }

    private init(fields container: some ContractFields<CodingKeys>) throws {
        identifier = try container.decodeNonEmpty(.identifier)
        title = try container.decode(String.self, forKey: .title)
        options = try container.decodeUnique([Option].self, forKey: .options, item: "option")
        textInput = try container.decodeIfPresent(TextInput.self, forKey: .textInput)
    }
}

extension ContractFields {
    /// An action set: no two actions may share an identifier, since a response names its action by it.
    func decodeActionSet(forKey key: Key, required: Bool) throws -> [NotificationAction] {
        let actions = required
            ? try decode([NotificationAction].self, forKey: key)
            : try decodeIfPresent([NotificationAction].self, forKey: key) ?? []
        try requireUnique(actions, forKey: key, by: \.identifier, item: "action identifier", field: "identifier")
        return actions
    }
}
