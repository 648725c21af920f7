// The pipeline's inputs and outputs are Messaging's `Message`, with its `MessageProperties` and field tables: plain
// values without librabbitmq, which whoever imports Responder gets with it.
@_exported import Messaging
