/// A state store on a server, named by its URL: what a module providing such a store (ResponderPostgres' PostgreSQL
/// store, whose `PostgresURL` conforms) reads from `--state`, and opens.
///
/// Responder names it in ``StateLocation`` without knowing it, so the chooser sits beside the stores' protocol while
/// the server's client stays in its own module. Its `description` must leave out secrets: logs show it.
public protocol StateServer: Sendable, Hashable, CustomStringConvertible {}
