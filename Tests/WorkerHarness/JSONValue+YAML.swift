import BrokerHarness
import Foundation
import NotificationEvents

/// YAML documents read as JSON: PyYAML (installed by scripts/test with kubernetes-validate) turns the file into
/// JSON, so the tests read manifests and the compose file as the YAML 1.1 loaders of Kubernetes tools do. A
/// missing key or index reads as `.null`, so a path through a document is one expression.
extension JSONValue {
    /// Every document of the YAML file at `url`.
    public static func yamlDocuments(_ url: URL) async throws -> [JSONValue] {
        let script = "import json, sys, yaml; json.dump(list(yaml.safe_load_all(open(sys.argv[1]))), sys.stdout)"
        let result = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/python3"), arguments: ["-c", script, url.path])
        guard result.status == 0 else { throw HarnessError("cannot read \(url.path) as YAML: \(result.output)") }
        return try JSONDecoder().decode([JSONValue].self, from: Data(result.output.utf8))
    }

    public subscript(key: String) -> JSONValue {
        if case .object(let object) = self { return object[key] ?? .null }
        return .null
    }

    /// The elements of an array; none for anything else.
    public var elements: [JSONValue] {
        if case .array(let array) = self { return array }
        return []
    }

    /// The keys and values of an object; none for anything else.
    public var fields: [String: JSONValue] {
        if case .object(let object) = self { return object }
        return [:]
    }

    /// A string, or a whole number written as one (`"9090"` and `9090` alike).
    public var text: String? {
        switch self {
        case .string(let text): text
        case .integer(let number): String(number)
        default: nil
        }
    }

    /// A whole number, or a string holding one.
    public var int: Int? { text.flatMap { Int($0) } }

    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var isNull: Bool { self == .null }
}
