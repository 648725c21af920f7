// The properties and field tables the client's API takes and gives live in Messaging, which the layers above the
// client can use without linking librabbitmq; whoever imports AMQP gets them with it.
@_exported import Messaging
