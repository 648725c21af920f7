import ArgumentParser
import Responder

/// Where a command takes its state store from: `run` from its flag or the environment (``StateOption``),
/// `replay`, `migrate` and `inspect` from their command line alone (``ReplayStateOption``, ``NamedStateOption``).
protocol StateSource: ParsableArguments {
    /// The store the command's options (and, for `run` only, the environment) name.
    func location(_ environment: EnvironmentFallback) throws(SettingError) -> StateLocation
}

extension StateLocation {
    /// The suffixes that mark a bare name as a SQLite file.
    private static let sqliteSuffixes = [".sqlite", ".sqlite3", ".db", ".db3"]

    /// The store `text` names, or a one-line error naming `--state`.
    ///
    /// A SQLite file named without a directory must have a SQLite suffix: `--state memory` (the colons of
    /// `:memory:` forgotten) would otherwise create a file called `memory` and keep state the user meant to drop.
    /// The error repeats nothing of the text, which could be a URL with its scheme forgotten.
    static func named(_ text: String, traits: BuildTraits = .current) throws(SettingError) -> StateLocation {
        let location: StateLocation
        do {
            location = try resolving(text, traits: traits)
        } catch {
            throw SettingError("--state: \(error)")
        }
        if case .sqlite(let path) = location, !path.contains("/"),
            !sqliteSuffixes.contains(where: { path.lowercased().hasSuffix($0) })
        {
            throw SettingError(
                "--state: a bare name without a SQLite suffix is taken for no file: for state that lasts one run "
                    + "use :memory:; name a SQLite file with a directory (./NAME) or a suffix (\(sqliteSuffixes.joined(separator: ", ")))")
        }
        return location
    }
}
