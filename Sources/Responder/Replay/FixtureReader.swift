import Foundation

/// Reads a JSON Lines file one line at a time, without loading it whole, so fixtures of any length replay in
/// bounded memory.
public struct FixtureReader {
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    /// The number of the line last returned, from 1.
    public private(set) var lineNumber = 0

    /// A reader of the file at `url`.
    public init(url: URL) throws {
        handle = try FileHandle(forReadingFrom: url)
    }

    /// The index of the first line break at or after `start`; `memchr` scans many bytes per step, where
    /// `firstIndex(of:)` looks at one.
    private static func newline(in buffer: [UInt8], from start: Int) -> Int? {
        buffer.withUnsafeBufferPointer { bytes in
            guard start < bytes.count,
                let found = memchr(bytes.baseAddress! + start, Int32(UInt8(ascii: "\n")), bytes.count - start)
            else { return nil }
            return UnsafeRawPointer(found) - UnsafeRawPointer(bytes.baseAddress!)
        }
    }

    /// The next line without its line break, or nil at the end of the file.
    public mutating func nextLine() throws -> [UInt8]? {
        while true {
            if let newline = Self.newline(in: buffer, from: start) {
                let line = buffer[start..<newline]
                start = newline + 1
                lineNumber += 1
                return Array(line.last == UInt8(ascii: "\r") ? line.dropLast() : line)
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                let line = Array(buffer[start...])
                start = buffer.count
                lineNumber += 1
                return line
            }
            buffer.removeFirst(start)
            start = 0
            if let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                buffer.append(contentsOf: chunk)
            } else {
                atEnd = true
                try handle.close()
            }
        }
    }
}
