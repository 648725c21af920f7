/// A setting as documentation: what the configuration table (ResponderWorker.docc, Configuration) shows.
struct SettingDescription: Sendable, Equatable {
    let flag: String
    let variable: String?
    let defaultDescription: String
    /// Whether the default is a value to type as it is (`200`), not words about one (`the registered ones`,
    /// `responder-state.sqlite in the working directory`).
    let defaultIsLiteral: Bool
    let allowed: String?
    let summary: String

    /// This setting as a row of the configuration table (ResponderWorker.docc, Configuration).
    var markdownRow: String {
        let variable = variable.map { "`\($0)`" } ?? ""
        let value = defaultIsLiteral ? "`\(defaultDescription)`" : defaultDescription
        return "| `--\(flag)` | \(variable) | \(value) | \(allowed ?? "") | \(summary) |"
    }
}
