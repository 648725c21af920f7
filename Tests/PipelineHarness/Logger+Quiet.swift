import Logging

extension Logger {
    /// A logger that drops everything, so test output stays readable.
    public static let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
}
