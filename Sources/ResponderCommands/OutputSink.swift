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
            // Opened in place: FileManager.createFile writes atomically, renaming a new file over the path, which
            // replaces a symlink and, run as root with `--out /dev/null`, turns the null device into a regular file.
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
            }
            handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            ownsHandle = true
        } else {
            handle = FileHandle.standardOutput
            ownsHandle = false
        }
        self.keepsLines = keepsLines
    }

    /// Writes `line` (UTF-8) and a line break.
    func write(_ line: [UInt8]) throws {
        if keepsLines { lines.append(String(decoding: line, as: UTF8.self)) }
        buffer.append(contentsOf: line)
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
