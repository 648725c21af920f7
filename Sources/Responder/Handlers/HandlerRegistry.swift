import NotificationEvents

/// Everything that decides what happens to a response: the registered categories, the extensions by category,
/// and the app delegate. Build it once at start-up and hand it to a ``ResponsePipeline``.
public struct HandlerRegistry: Sendable {
    /// The registered categories; replace them with ``setNotificationCategories(_:)``.
    public private(set) var categories: CategoryRegistry
    private(set) var extensionsByCategory: [String: AnyContentExtension] = [:]
    private var extensionNames: Set<String> = []
    /// The app tier, if one is set.
    private(set) var delegate: (any UserNotificationCenterDelegate)?
    /// Where handlers may send messages of their own, by name; add one with ``declare(_:)``.
    public private(set) var destinations: [String: MessageDestination] = [:]
    /// The app tier's limit, when not the pipeline's ``PipelineConfiguration/handlerTimeout``.
    private(set) var delegateTimeout: Duration?

    /// A registry with `categories` and no handlers.
    public init(categories: CategoryRegistry = CategoryRegistry()) {
        self.categories = categories
    }

    /// Replaces the whole set of categories, as `UNUserNotificationCenter.setNotificationCategories` does.
    ///
    /// Call ``checkExtensionCategories()`` afterwards when extensions are already registered: a new set may lack a
    /// category one of them handles.
    public mutating func setNotificationCategories(_ categories: CategoryRegistry) {
        self.categories = categories
    }

    /// Throws ``RegistrationError/unregisteredCategory(category:extension:)`` for the first category (in name order)
    /// that a registered extension handles and the registered categories lack.
    ///
    /// A response of a category nobody registered never reaches an extension on a device, since the notification
    /// showed no buttons; here such an extension would never run, which is a typo's silent effect.
    public func checkExtensionCategories() throws(RegistrationError) {
        for category in extensionsByCategory.keys.sorted() where categories[category] == nil {
            throw .unregisteredCategory(category: category, extension: extensionsByCategory[category]!.name)
        }
    }

    /// Registers one category, replacing any with the same identifier.
    public mutating func register(_ category: NotificationCategory) {
        categories.register(category)
    }

    /// Registers an extension for its categories; a `timeout` replaces the pipeline's
    /// ``PipelineConfiguration/handlerTimeout`` for it (``HandlerTimeout``).
    ///
    /// - Throws: ``RegistrationError`` when another extension already has the same name or one of the
    ///   categories (as on iOS, a category has at most one content extension), when one of its categories is not
    ///   registered (register the categories first), or when it is named `delegate`, the app tier's name, or
    ///   `responder.follow-ups`, the key its follow-ups are stored under.
    public mutating func register(
        _ handler: some NotificationContentExtension, timeout: Duration? = nil
    ) throws(RegistrationError) {
        precondition(timeout.map { $0 > .zero } ?? true, "a handler's timeout must be positive")
        let erased = AnyContentExtension(handler, timeout: timeout)
        guard erased.name != HandlerTimeout.delegate, erased.name != PendingFollowUp.stateKey else {
            throw .reservedExtensionName(erased.name)
        }
        guard !extensionNames.contains(erased.name) else { throw .duplicateExtensionName(erased.name) }
        for category in erased.categoryIdentifiers.sorted() {
            if let existing = extensionsByCategory[category] {
                throw .categoryAlreadyHandled(category: category, by: existing.name)
            }
            if categories[category] == nil {
                throw .unregisteredCategory(category: category, extension: erased.name)
            }
        }
        extensionNames.insert(erased.name)
        for category in erased.categoryIdentifiers { extensionsByCategory[category] = erased }
    }

    /// Declares a destination handlers may send messages to (``ExtensionContext/send(_:to:contentType:type:)``,
    /// ``DelegateContext/send(_:to:contentType:type:)``); the worker declares its exchange (and queue) at start.
    ///
    /// - Throws: ``RegistrationError/duplicateDestination(_:)`` when another destination has the same name.
    public mutating func declare(_ destination: MessageDestination) throws(RegistrationError) {
        guard destinations[destination.name] == nil else { throw .duplicateDestination(destination.name) }
        destinations[destination.name] = destination
    }

    /// Sets the app tier, replacing any delegate set before; a `timeout` replaces the pipeline's
    /// ``PipelineConfiguration/handlerTimeout`` for it (``HandlerTimeout``).
    public mutating func setDelegate(_ delegate: some UserNotificationCenterDelegate, timeout: Duration? = nil) {
        precondition(timeout.map { $0 > .zero } ?? true, "a handler's timeout must be positive")
        self.delegate = delegate
        delegateTimeout = timeout
    }
}
