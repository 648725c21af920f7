/// The type of an exchange: how it routes messages to bound queues.
///
/// The four standard types are static members; plugin types are written by name,
/// for example `ExchangeType("x-consistent-hash")`.
public struct ExchangeType: RawRepresentable, Sendable, Hashable {
    /// The name the broker knows the type by.
    public var rawValue: String

    /// A type by its broker name.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// A type by its broker name.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// Routes to queues bound with exactly the message's routing key.
    public static let direct = ExchangeType("direct")
    /// Routes by routing-key patterns with `*` (one word) and `#` (any words).
    public static let topic = ExchangeType("topic")
    /// Routes to every bound queue.
    public static let fanout = ExchangeType("fanout")
    /// Routes by matching message headers against binding arguments.
    public static let headers = ExchangeType("headers")
}
