import Foundation

/// Where tests find the package's files; the worker harness adds the fixtures and the `responder` executable.
public enum Paths {
    /// The package root.
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A new empty folder for one test's files (state stores, logs).
    public static func temporaryFolder(_ label: String = "responder-test") throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
