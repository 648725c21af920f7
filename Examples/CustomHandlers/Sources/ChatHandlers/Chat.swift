import NotificationEvents
import Responder

/// A chat app's message notifications: reply with text, like and unlike. The categories, the extension and the
/// app delegate of this example, and the one call that registers them all.
public enum Chat {
    /// The category of message notifications.
    public static let messageCategoryIdentifier = "reply-category"
    /// The text-input action that sends a reply.
    public static let replyActionIdentifier = "reply-action"
    /// The action that likes the message.
    public static let likeActionIdentifier = "like-action"
    /// The action that takes the like back; shown instead of Like once the message is liked.
    public static let unlikeActionIdentifier = "unlike-action"

    /// The reply button: a text field with a Send button.
    public static let replyAction = NotificationAction(
        identifier: replyActionIdentifier, title: "Reply",
        textInput: NotificationAction.TextInput(buttonTitle: "Send", placeholder: "Message"))
    /// The like button.
    public static let likeAction = NotificationAction(identifier: likeActionIdentifier, title: "Like")
    /// The unlike button.
    public static let unlikeAction = NotificationAction(
        identifier: unlikeActionIdentifier, title: "Unlike", options: [.destructive])

    /// Every message notification starts with Reply and Like; dismisses reach the app delegate.
    public static let messageCategory = NotificationCategory(
        identifier: messageCategoryIdentifier, actions: [replyAction, likeAction], options: [.customDismissAction])

    /// Where replies go: the chat service consumes `chat.replies`, which the worker declares and binds at start.
    public static let replies = MessageDestination(
        name: "chat-replies", exchange: "chat.replies", routingKey: "reply", queue: "chat.replies")

    /// Registers the category, the reply destination, the extension and the app delegate.
    public static func register(in registry: inout HandlerRegistry) throws(RegistrationError) {
        registry.register(messageCategory)
        try registry.declare(replies)
        try registry.register(MessageExtension())
        registry.setDelegate(ChatAppDelegate())
    }
}
