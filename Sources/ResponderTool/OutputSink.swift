import Foundation

/// Where replay's output lines go: a file or stdout, written in large chunks; optionally also kept for a
/// comparison with a golden file.
final class OutputSink {
    private let handle: FileHandle
    private let ownsHandle: Bool
    private let keepsLines: Bool
    private var buffer: [UInt8] = []
    private(set) var lines: [String] = []

    /// A sink writing to the file at `path` (created or truncated), or to stdout when `path` is nil.
    init(path: String?, keepsLines: Bool) throws {
        if let path {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
            }
            handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            ownsHandle = true
        } else {
            handle = FileHandle.standardOutput
            ownsHandle = false
        }
        self.keepsLines = keepsLines
    }

    /// Writes `line` and a line break.
    func write(_ line: String) throws {
        if keepsLines { lines.append(line) }
        buffer.append(contentsOf: line.utf8)
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Writes what is buffered and closes a file.
    func close() throws {
        try flush()
        if ownsHandle { try handle.close() }
    }

    private func flush() throws {
        try handle.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
