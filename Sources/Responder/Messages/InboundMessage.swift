/// A message as it arrived: one input of the pipeline, whatever transport delivered it.
///
/// Its `redelivered` flag is informational only: the inbox recognises a repeated event by its id whatever the flag
/// says.
public typealias InboundMessage = Message
