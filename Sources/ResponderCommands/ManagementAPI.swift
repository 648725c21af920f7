import Foundation
import ResponderIntake
import ResponderWorker

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// RabbitMQ's management HTTP API (the `rabbitmq_management` plugin), for what AMQP has no method for: policies.
///
/// Its URL is `http[s]://user:password@host:port/VHOST`: the last path segment names the virtual host,
/// percent-encoded as in an AMQP URL (`%2F` for `/`), and what comes before it is the API's path prefix, if the
/// broker has one. The credentials go in an Authorization header and appear in no message.
struct ManagementAPI {
    /// The API's root (scheme, host, port, path prefix), without credentials or virtual host.
    private let root: String
    /// The virtual host, percent-encoded for a path segment.
    private let virtualHost: String
    private let authorization: String?

    init(url text: String) throws(SettingError) {
        guard var components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
        else {
            throw SettingError("\(Settings.managementURL.variable ?? ""): not an http:// or https:// URL")
        }
        if let user = components.user {
            authorization = "Basic " + Data("\(user):\(components.password ?? "")".utf8).base64EncodedString()
        } else {
            authorization = nil
        }
        var segments = components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: true)
        virtualHost = segments.popLast().map(String.init) ?? "%2F"
        components.user = nil
        components.password = nil
        components.percentEncodedPath = segments.isEmpty ? "" : "/" + segments.joined(separator: "/")
        components.query = nil
        components.fragment = nil
        root = components.string ?? "\(scheme)://\(host)"
    }

    /// Where the API is, without credentials: safe to print.
    var description: String { "\(root) (virtual host \(virtualHost.removingPercentEncoding ?? virtualHost))" }

    /// Creates `policy`, or replaces the policy of that name.
    func declare(_ policy: DeadLetterPolicy) async throws(SettingError) {
        let name = policy.name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? policy.name
        guard let url = URL(string: "\(root)/api/policies/\(virtualHost)/\(name)") else {
            throw SettingError("the management API at \(description) has no usable policy URL")
        }
        var request = URLRequest(url: url)
        request.httpMethod = "PUT"
        request.timeoutInterval = 30
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(authorization, forHTTPHeaderField: "Authorization")
        let body: [String: Any] = [
            "pattern": policy.pattern, "definition": policy.definition, "priority": policy.priority,
            "apply-to": policy.applyTo,
        ]
        let answer: (Data, URLResponse)
        do {
            request.httpBody = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
            answer = try await URLSession.shared.data(for: request)
        } catch {
            throw SettingError("no answer from the management API at \(description): \(error.localizedDescription)")
        }
        let status = (answer.1 as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) else {
            // The API answers errors as {"error": ..., "reason": ...}; bounded, since it is the broker's text.
            let reason = String(decoding: answer.0.prefix(300), as: UTF8.self)
            throw SettingError("the management API at \(description) refused policy \(policy.name): HTTP \(status) \(reason)")
        }
    }
}
