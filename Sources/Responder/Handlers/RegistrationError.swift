/// Why a handler could not be registered.
public enum RegistrationError: Error, Hashable, CustomStringConvertible {
    /// Two extensions would store their state under the same name.
    case duplicateExtensionName(String)
    /// The category already has an extension.
    case categoryAlreadyHandled(category: String, by: String)
    /// An extension names a category that is not registered, so no response would ever reach it for that category.
    case unregisteredCategory(category: String, extension: String)
    /// Two message destinations have the same name.
    case duplicateDestination(String)
    /// An extension is named as the app tier is known in timeouts and dependency failures (`delegate`), or as the
    /// stored follow-ups are (`responder.follow-ups`).
    case reservedExtensionName(String)

    public var description: String {
        switch self {
        case .duplicateExtensionName(let name): "an extension named \"\(name)\" is already registered"
        case .categoryAlreadyHandled(let category, let name):
            "category \"\(category)\" already has the extension \"\(name)\""
        case .unregisteredCategory(let category, let name):
            "the extension \"\(name)\" handles category \"\(category)\", which is not registered: register the "
                + "category first (or check the identifier for a typo)"
        case .duplicateDestination(let name): "a message destination named \"\(name)\" is already declared"
        case .reservedExtensionName(let name):
            "an extension cannot be named \"\(name)\": the worker uses that name itself; choose another"
        }
    }
}
