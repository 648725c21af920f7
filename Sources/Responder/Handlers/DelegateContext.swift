import Logging
import NotificationEvents

/// What the app tier knows about the response it handles besides the response itself.
public struct DelegateContext: Sendable {
    /// The id of the event being handled.
    public var eventID: String { log.eventID }
    /// The notification's request identifier.
    public var requestIdentifier: String { log.requestIdentifier }
    /// Whether an extension forwarded this response with `ResponseOption.dismissAndForwardAction`.
    public let isForwarded: Bool
    /// A logger carrying the event id, request identifier, category and action as metadata; made on each read
    /// (so a handler that does not log pays nothing for it): keep a copy to log many lines.
    public var logger: Logger {
        get { loggerSet ?? log.logger }
        set { loggerSet = newValue }
    }
    private let log: ResponseLog
    private var loggerSet: Logger?

    init(isForwarded: Bool, log: ResponseLog) {
        self.isForwarded = isForwarded
        self.log = log
    }

    /// The context the app tier gets for `response`, handled as the event `eventID`, forwarded by an extension when
    /// `isForwarded`: for calling `didReceive(_:context:)` directly in a unit test. The pipeline builds its own.
    public init(
        response: NotificationResponse, eventID: String = "test-event", isForwarded: Bool = false,
        logger: Logger = Logger(label: "responder.test")
    ) {
        self.init(isForwarded: isForwarded, log: ResponseLog(logger, eventID: eventID, response: response))
    }
}
