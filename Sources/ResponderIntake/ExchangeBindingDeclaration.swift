/// An exchange bound to another: what `source` routes with ``routingKey`` goes on to `destination`.
public struct ExchangeBindingDeclaration: Sendable, Hashable, Codable {
    public var destination: String
    public var source: String
    public var routingKey: String
}
