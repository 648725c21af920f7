/// How decoding errors name a field: keys joined by dots, array positions in brackets, e.g.
/// `data.notification.request.identifier` or `data.actions[1].options[0]`; the document itself is `(root)`.
enum FieldPath {
    enum Component {
        case key(String)
        case index(Int)
    }

    static let root = "(root)"

    static func render(_ components: [Component]) -> String {
        guard !components.isEmpty else { return root }
        var text = ""
        for component in components {
            switch component {
            case .key(let key): text += text.isEmpty ? key : "." + key
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }

    /// Only ``ArrayIndexKey`` is a position: a dictionary key such as `"42"` stays a key.
    static func render(_ codingPath: [any CodingKey]) -> String {
        render(codingPath.map { key in (key as? ArrayIndexKey).map { .index($0.index) } ?? .key(key.stringValue) })
    }
}

/// The coding key of an array element in the contract decoder's coding paths.
struct ArrayIndexKey: CodingKey {
    let index: Int

    init(_ index: Int) { self.index = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.index = intValue }

    var stringValue: String { "[\(index)]" }
    var intValue: Int? { index }
}

/// A coding key named at run time, for naming a field in an error the decoder raises after the fact.
struct FieldKey: CodingKey {
    let stringValue: String

    init(_ name: String) { self.stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }

    var intValue: Int? { nil }
}
