import BrokerHarness
import Foundation
import NotificationEvents
import WorkerHarness

/// One way to run the worker on Kubernetes: a folder of `deploy/kubernetes/` and the objects its files hold.
struct KubernetesVariant: CustomStringConvertible {
    static let root = Paths.root.appendingPathComponent("deploy/kubernetes")
    /// The variants: the single SQLite worker and the PostgreSQL fleet.
    static let names = ["single", "fleet"]

    let name: String
    let files: [URL]
    let objects: [JSONValue]

    static func load(_ name: String) async throws -> KubernetesVariant {
        let folder = root.appendingPathComponent(name)
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { ["yaml", "yml"].contains($0.pathExtension) }.sorted { $0.path < $1.path }
        var objects: [JSONValue] = []
        for file in files { objects += try await JSONValue.yamlDocuments(file).filter { !$0.isNull } }
        return KubernetesVariant(name: name, files: files, objects: objects)
    }

    var description: String { "deploy/kubernetes/\(name)" }

    /// The objects of `kind`.
    func objects(_ kind: String) -> [JSONValue] { objects.filter { $0["kind"].text == kind } }

    /// The one StatefulSet or Deployment.
    func workload() throws -> JSONValue {
        let workloads = objects.filter { ["StatefulSet", "Deployment"].contains($0["kind"].text ?? "") }
        guard workloads.count == 1, let workload = workloads.first else {
            throw HarnessError("\(self) has \(workloads.count) workloads, not one")
        }
        return workload
    }

    /// The pod template's spec.
    func pod() throws -> JSONValue { try workload()["spec"]["template"]["spec"] }

    /// The pod's labels.
    func podLabels() throws -> [String: String] {
        try workload()["spec"]["template"]["metadata"]["labels"].fields.compactMapValues(\.text)
    }

    /// The container that runs `responder`.
    func container() throws -> JSONValue {
        guard let container = try pod()["containers"].elements.first(where: { $0["name"].text == "responder" }) else {
            throw HarnessError("\(self) has no container named responder")
        }
        return container
    }

    /// The container's environment: each variable's value, nil for one taken from elsewhere (`valueFrom`).
    func environment() throws -> [String: String?] {
        var environment: [String: String?] = [:]
        for variable in try container()["env"].elements {
            guard let name = variable["name"].text else { throw HarnessError("\(self): a variable without a name") }
            environment[name] = variable["value"].text
        }
        return environment
    }

    /// The number a container port, given by name or number as probes and Services give it, stands for.
    func containerPort(_ port: JSONValue) throws -> Int? {
        if let number = port.int { return number }
        return try container()["ports"].elements.first { $0["name"].text == port.text }?["containerPort"].int
    }

    /// The volume mounted at the deepest mount path that holds `path`, or nil.
    func volume(holding path: String) throws -> (mountPath: String, volume: String)? {
        try container()["volumeMounts"].elements.compactMap { mount -> (String, String)? in
            guard let mountPath = mount["mountPath"].text, let volume = mount["name"].text,
                path.hasPrefix(mountPath.hasSuffix("/") ? mountPath : mountPath + "/")
            else { return nil }
            return (mountPath, volume)
        }.max { $0.0.count < $1.0.count }
    }

    /// Whether every label `selector` asks for is on the pod.
    func selects(_ selector: JSONValue) throws -> Bool {
        let labels = try podLabels()
        let wanted = selector.fields.compactMapValues(\.text)
        return !wanted.isEmpty && wanted.allSatisfy { labels[$0.key] == $0.value }
    }
}
