import Foundation

/// A file holding a state location, as a mounted secret does: the text and a line break.
enum StateSecret {
    static func file(holding location: String, in folder: URL) throws -> URL {
        let file = folder.appendingPathComponent("state-url")
        try "\(location)\n".write(to: file, atomically: true, encoding: .utf8)
        return file
    }
}
