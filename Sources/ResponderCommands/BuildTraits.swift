/// The package traits this build of ResponderCommands was compiled with: what a worker can do beyond SQLite and
/// memory. A team's worker that depends on responder with `traits: []` has neither, and builds neither's packages.
struct BuildTraits: Sendable, Hashable {
    /// `PostgreSQL`: the PostgreSQL state store (`--state postgres://…`).
    var postgreSQL: Bool
    /// `OpenTelemetry`: OTLP export of `run`'s traces (the `OTEL_*` variables).
    var openTelemetry: Bool

    /// This build's traits.
    static let current: BuildTraits = {
        var traits = BuildTraits(postgreSQL: false, openTelemetry: false)
        #if PostgreSQL
            traits.postgreSQL = true
        #endif
        #if OpenTelemetry
            traits.openTelemetry = true
        #endif
        return traits
    }()
}

/// A setting that asks for what a trait this build lacks provides. It names the trait and how to add it, since the
/// fix is in the worker's Package.swift, not on its command line.
struct MissingTrait: Error, Equatable, CustomStringConvertible {
    /// The trait's name, as Package.swift spells it.
    var trait: String
    /// What asked for it, e.g. `--state postgres://…`.
    var asked: String

    static let postgreSQL = MissingTrait(trait: "PostgreSQL", asked: "a postgres:// state store")
    static let openTelemetry = MissingTrait(
        trait: "OpenTelemetry", asked: "trace export (an OTEL_* variable asks for it)")

    var description: String {
        "\(asked) needs the \(trait) trait, and this worker was built without it: add traits: [\"\(trait)\"] to its "
            + "responder package dependency (leaving traits out gives the default ones, \(trait) included)"
    }
}
