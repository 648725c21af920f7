import Foundation

/// Every `responder` command (`run`, `replay`, `record`, `publish`, `watch`, `redrive`, `topology`, `migrate`,
/// `inspect`, `shards`, `health`) for a program of your own handlers, with the same flags, environment variables, defaults,
/// help, logs and metrics as `responder`.
///
/// A package of your own needs a `main.swift` of one line beyond its imports:
///
/// ```swift
/// import ChatHandlers
/// import ResponderCommands
///
/// await ResponderCommandLine.main(registration: { try Chat.register(in: &$0) })
/// ```
public enum ResponderCommandLine {
    /// Parses the process's arguments and runs the command they name with the handlers `registration`
    /// registers, then exits.
    ///
    /// - Parameters:
    ///   - name: the program's name in usage lines; by default the executable's file name.
    ///   - registration: registers the program's categories and handlers.
    public static func main(name: String? = nil, registration: @escaping Registration) async {
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "responder").lastPathComponent
        Program.install(Program(name: name ?? executable, registration: registration))
        await ResponderCommand.main()
    }
}
