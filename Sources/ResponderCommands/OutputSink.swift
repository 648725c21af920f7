import Foundation

/// Where replay's output lines go: a file or stdout, written in large chunks; optionally also kept for a
/// comparison with a golden file.
final class OutputSink {
    /// Where the lines are written; `nil` when they are only kept.
    private let handle: FileHandle?
    private let ownsHandle: Bool
    private let keepsLines: Bool
    private var buffer: [UInt8] = []
    private(set) var lines: [String] = []

    /// A sink writing to the file at `path` (created or truncated), or to stdout when `path` is nil.
    ///
    /// A private sink is for what users typed (recorded inputs): its file is readable by its owner only (0600, an
    /// existing regular file made so too), and `path` must not be a symbolic link, which could lead the writes into
    /// a file that others read or that something else depends on, nor a FIFO or socket, whose reader could be anyone;
    /// it throws a ``SettingError`` saying so. A device (`/dev/null`) is allowed.
    init(path: String?, keepsLines: Bool, isPrivate: Bool = false) throws {
        if let path {
            // Opened in place: FileManager.createFile writes atomically, renaming a new file over the path, which
            // replaces a symlink and, run as root with `--out /dev/null`, turns the null device into a regular file.
            // O_NONBLOCK: opening a FIFO for writing would otherwise wait for a reader before the check below.
            let flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | (isPrivate ? O_NOFOLLOW | O_NONBLOCK : 0)
            let descriptor = open(path, flags, isPrivate ? 0o600 : 0o644)
            guard descriptor >= 0 else {
                if isPrivate, errno == ELOOP {
                    throw SettingError("\(path) is a symbolic link: a recording is written only to the file itself")
                }
                // A FIFO without a reader refuses a non-blocking writer; with one, the check below refuses it.
                if isPrivate, errno == ENXIO { throw Self.notAFile(path) }
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
            }
            handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            var status = stat()
            if isPrivate, fstat(descriptor, &status) == 0, ![S_IFREG, S_IFCHR].contains(status.st_mode & S_IFMT) {
                throw Self.notAFile(path)
            }
            // Only a regular file: the mode of a device such as /dev/null is not the recording's to change.
            if isPrivate, fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
                status.st_mode & 0o077 != 0, fchmod(descriptor, 0o600) != 0
            {
                throw SettingError("\(path): cannot make it readable by its owner only: \(String(cString: strerror(errno)))")
            }
            ownsHandle = true
        } else {
            handle = FileHandle.standardOutput
            ownsHandle = false
        }
        self.keepsLines = keepsLines
    }

    /// A sink that writes nothing and keeps every line, for a comparison whose outputs nobody asked to see.
    static func keepingLinesOnly() -> OutputSink { OutputSink(keepingLinesOnly: ()) }

    private init(keepingLinesOnly: Void) {
        handle = nil
        ownsHandle = false
        keepsLines = true
    }

    /// The refusal of a private sink's path that is a FIFO or a socket.
    private static func notAFile(_ path: String) -> SettingError {
        SettingError("\(path) is neither a file nor a device: a recording is written only to a file")
    }

    /// Writes `line` (UTF-8) and a line break.
    func write(_ line: [UInt8]) throws {
        if keepsLines { lines.append(String(decoding: line, as: UTF8.self)) }
        guard handle != nil else { return }
        buffer.append(contentsOf: line)
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Writes what is buffered and closes a file.
    func close() throws {
        try flush()
        if ownsHandle { try handle?.close() }
    }

    private func flush() throws {
        guard let handle else { return }
        try handle.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
