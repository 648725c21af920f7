/// A durable queue and its arguments.
public struct QueueDeclaration: Sendable, Hashable, Codable {
    public var name: String
    public var arguments: [String: ArgumentValue]
}
