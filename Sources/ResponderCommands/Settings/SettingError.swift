/// A setting, a file or a value that keeps a command from starting, in one line that names the flag, the
/// variable or the file.
public struct SettingError: Error, CustomStringConvertible, Equatable {
    /// The whole message.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
