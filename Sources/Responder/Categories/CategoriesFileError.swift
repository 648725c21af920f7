/// A categories file that could not be loaded, with its path and why.
public struct CategoriesFileError: Error, CustomStringConvertible {
    /// The file's path.
    public var path: String
    /// What went wrong, readable.
    public var reason: String

    public var description: String { "categories file \(path) \(reason)" }
}
