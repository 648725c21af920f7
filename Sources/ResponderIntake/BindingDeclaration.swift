/// A queue bound to an exchange.
public struct BindingDeclaration: Sendable, Hashable, Codable {
    public var queue: String
    public var exchange: String
    public var routingKey: String
}
