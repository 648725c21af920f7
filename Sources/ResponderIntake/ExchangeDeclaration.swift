/// A durable exchange.
public struct ExchangeDeclaration: Sendable, Hashable, Codable {
    public var name: String
    /// `direct`, `topic`, `fanout` or `headers`.
    public var type: String
}
