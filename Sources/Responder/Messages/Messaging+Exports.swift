// A message's headers are a field table (`MessageProperties.headers`) from Messaging, a module of plain values;
// whoever imports Responder gets them with it.
@_exported import Messaging
