import Responder
import Synchronization

/// A program's handler registration: registers its categories, content extensions and app delegate, as
/// `RedGreen.register(in:)` or `Chat.register(in:)` do.
public typealias Registration = @Sendable (inout HandlerRegistry) throws -> Void

/// What ``ResponderCommandLine/main(name:registration:)`` was handed: the program's name and its registration,
/// for the commands that ArgumentParser creates.
struct Program: Sendable {
    /// The name in usage lines and help.
    var name: String
    /// The handlers `run` and `replay` register.
    var registration: Registration

    private static let installed = Mutex(Program(name: "responder", registration: { _ in }))

    /// The program running now.
    static var current: Program { installed.withLock { $0 } }

    /// Makes `program` the one the commands see.
    static func install(_ program: Program) {
        installed.withLock { $0 = program }
    }
}
