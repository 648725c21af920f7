import Foundation

/// Whether a file a command is told to read can be read, in words: a missing or unreadable fixture, categories
/// file, certificate or secret is reported as its path and the system's reason, in one line, before any work.
enum ReadableFile {
    /// Why `path` cannot be read (`no such file`, `permission denied`, `is a folder`), or `nil` when it can.
    static func problem(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return "cannot read \(path): \(String(cString: strerror(errno)))" }
        defer { close(descriptor) }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            return "cannot read \(path): it is a folder"
        }
        return nil
    }

    /// Throws a ``SettingError`` naming `source` (the flag, variable or argument) when `path` cannot be read.
    static func check(_ path: String, as source: String) throws(SettingError) {
        if let problem = problem(path) { throw SettingError("\(source): \(problem)") }
    }

    /// `path`'s contents as UTF-8 text, or a ``SettingError`` naming `source` (the flag or variable) and the file.
    static func text(_ path: String, for source: String) throws(SettingError) -> String {
        try check(path, as: source)
        do {
            return try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw SettingError("\(source): cannot read \(path): it is not UTF-8 text")
        }
    }

    /// The trimmed contents of the file `path` (a mounted secret holding one URL), or a ``SettingError`` naming
    /// `source`: the line break a secret file ends with is not part of the URL.
    static func secret(_ path: String, for source: String) throws(SettingError) -> String {
        try text(path, for: source).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
