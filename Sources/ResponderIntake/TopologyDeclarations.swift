/// A plan of declarations: data, so it can be printed as well as declared.
public struct TopologyDeclarations: Sendable, Hashable, Codable {
    public var exchanges: [ExchangeDeclaration]
    public var queues: [QueueDeclaration]
    public var bindings: [BindingDeclaration]
    /// Exchanges bound to exchanges: ordered mode's consistent-hash exchange to the input exchange.
    public var exchangeBindings: [ExchangeBindingDeclaration]
}

extension TopologyDeclarations {
    /// The plan as a person reads it, one declaration a line.
    public var humanDescription: String {
        var lines = ["Exchanges:"]
        lines += exchanges.map { "  \($0.name)  (\($0.type), durable)" }
        lines.append("Queues:")
        for queue in queues {
            let arguments = queue.arguments.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            lines.append("  \(queue.name)  (durable\(arguments.isEmpty ? "" : ", " + arguments.joined(separator: ", ")))")
        }
        lines.append("Bindings:")
        lines += exchangeBindings.map { "  \($0.source) --[\($0.routingKey)]--> exchange \($0.destination)" }
        lines += bindings.map { "  \($0.exchange) --[\($0.routingKey)]--> \($0.queue)" }
        return lines.joined(separator: "\n") + "\n"
    }
}
