/// A message the pipeline wants published, whatever transport will publish it: its body is the exact bytes to
/// publish (a redelivered input yields the same bytes again), its routing key for action-set updates the category
/// identifier.
public typealias OutboundMessage = Message
