import NotificationEvents
import Responder

/// Apple's RedGreenNotifications sample as handlers: red and green notifications with a "Rotate 20°" button;
/// after the first tap a "Reset rotation" button appears, and every ninth tap (a full turn) removes it again.
///
/// Register it whole with ``register(in:)``, or take its parts to build a registry of your own.
public enum RedGreen {
    /// The identifier of the red category.
    public static let redCategoryIdentifier = "red-category"
    /// The identifier of the green category.
    public static let greenCategoryIdentifier = "green-category"
    /// The identifier of the rotate button.
    public static let rotateActionIdentifier = "rotate-twenty-degrees-action"
    /// The identifier of the reset button.
    public static let resetActionIdentifier = "reset-rotation-action"

    /// The button every red and green notification starts with.
    public static let rotateAction = NotificationAction(identifier: rotateActionIdentifier, title: "Rotate 20°")
    /// The button that appears once the image is rotated.
    public static let resetAction = NotificationAction(identifier: resetActionIdentifier, title: "Reset rotation")

    /// The red and green categories: one rotate action each, and dismisses delivered to the app.
    public static let categories = [redCategoryIdentifier, greenCategoryIdentifier].map {
        NotificationCategory(identifier: $0, actions: [rotateAction], options: [.customDismissAction])
    }

    /// Registers the categories, the rotation extension and the app delegate.
    public static func register(in registry: inout HandlerRegistry) throws(RegistrationError) {
        for category in categories { registry.register(category) }
        try registry.register(RotationExtension())
        registry.setDelegate(RedGreenAppDelegate())
    }

    /// A registry holding the sample and nothing else.
    public static func makeRegistry() -> HandlerRegistry {
        var registry = HandlerRegistry()
        do {
            try register(in: &registry)
        } catch {
            // An empty registry has no handler the sample's could clash with.
            preconditionFailure("registering RedGreen in an empty registry failed: \(error)")
        }
        return registry
    }
}
