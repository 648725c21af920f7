/// What to suggest for an option the command does not have and that is no near spelling of one (ArgumentParser
/// suggests those itself): the command's option whose name or help mentions a word of it (`--in-memory` →
/// `--state`, whose help names `:memory:`). Read from the command's own help, so it names only an option the
/// command has.
struct UnknownOptionHint {
    /// The suggested option, with its dashes.
    var option: String
    /// The word its help shares with the unknown option.
    var sharedWord: String

    /// The suggestion for `unknown` (e.g. `--in-memory`) among the options of `help`, a command's help text.
    init?(unknown: String, help: String) {
        let options = Self.options(in: help)
        let typed = unknown.drop { $0 == "-" }.lowercased()
        // Words short enough to be in every help ("in", "use", "max") would suggest anything.
        let words = typed.split(separator: "-").map(String.init).filter { $0.count >= 4 }
        for word in words {
            if let match = options.first(where: { $0.text.lowercased().contains(word) }) {
                option = match.name
                sharedWord = word
                return
            }
        }
        return nil
    }

    /// The line that follows the parser's "Unknown option" line.
    var line: String {
        "Did you mean \(option)? Its help mentions \"\(sharedWord)\"."
    }

    /// Each option of a help text with its block (the option's line and its wrapped description).
    private static func options(in help: String) -> [(name: String, text: String)] {
        var options: [(name: String, text: String)] = []
        for line in help.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " }
            if line.hasPrefix("  --"), let name = trimmed.split(separator: " ").first {
                options.append((String(name), String(trimmed)))
            } else if line.hasPrefix("   "), !options.isEmpty {
                options[options.count - 1].text += " " + trimmed
            }
        }
        return options.filter { $0.name != "--help" }
    }
}
