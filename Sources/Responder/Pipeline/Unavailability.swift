/// Why an input cannot be handled now through no fault of its own: what a worker pauses for, handing the input back
/// uncounted (or, in ordered mode, holding it in place) until the outage ends.
public enum Unavailability: Sendable {
    /// The state store cannot serve.
    case store(StateStoreUnavailable)
    /// A dependency of a handler failed several different events in a row.
    case dependency(DependencyUnavailable)

    /// What went wrong, for the log: it may name a host or a user, so never for `/health/ready`.
    public var reason: String {
        switch self {
        case .store(let unavailable): unavailable.reason
        case .dependency(let unavailable): unavailable.description
        }
    }
}

extension ResponseOutcome {
    /// The outage an input met, when it was handed back for one; nil for any other outcome.
    public var unavailability: Unavailability? {
        switch self {
        case .storeUnavailable(let unavailable): .store(unavailable)
        case .dependencyUnavailable(let unavailable): .dependency(unavailable)
        case .completed, .deadLetter, .failed: nil
        }
    }
}
