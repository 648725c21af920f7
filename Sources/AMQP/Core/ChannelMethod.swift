/// The synchronous channel methods, with their arguments.
enum ChannelMethod: Sendable {
    case open
    case close
    case declareExchange(
        name: String, type: String, durable: Bool, autoDelete: Bool, passive: Bool, arguments: FieldTable)
    case deleteExchange(name: String, ifUnused: Bool)
    case declareQueue(
        name: String, durable: Bool, exclusive: Bool, autoDelete: Bool, passive: Bool, arguments: FieldTable)
    case bindQueue(queue: String, exchange: String, routingKey: String, arguments: FieldTable)
    case bindExchange(destination: String, source: String, routingKey: String, arguments: FieldTable)
    case purgeQueue(name: String)
    case deleteQueue(name: String, ifUnused: Bool, ifEmpty: Bool)
    case qos(prefetchCount: UInt16)
    case selectConfirms
    case consume(queue: String, tag: String, exclusive: Bool, arguments: FieldTable, deliveries: DeliveryStream.Continuation)
    case cancel(tag: String)
    case get(queue: String)
}
