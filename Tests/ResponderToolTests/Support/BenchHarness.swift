import BrokerHarness
import Foundation
import WorkerHarness

/// The bench harness's modules that need no aio-pika (Benchmarks/harness: build.py, results.py, check.py), run with
/// the system's Python, so the suite tests the harness's logic without running a bench.
enum BenchHarness {
    static let folder = Paths.root.appendingPathComponent("Benchmarks/harness")

    /// Runs `script` with the harness's folder on `sys.path` and `arguments` as `sys.argv[1...]`.
    static func python(_ script: String, _ arguments: [String] = []) async throws -> (status: Int32, output: String) {
        try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            arguments: ["python3", "-c", "import sys; sys.path.insert(0, \(pythonString(folder.path)))\n" + script]
                + arguments)
    }

    /// Runs check.py (`scripts/bench --check` on a results file) with `arguments`.
    static func check(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), arguments: ["python3", folder.appendingPathComponent("check.py").path] + arguments)
    }

    /// Writes `value` as JSON into `folder/name`, returning its path.
    static func writeJSON(_ value: Any, _ name: String, in folder: URL) throws -> String {
        let file = folder.appendingPathComponent(name)
        try JSONSerialization.data(withJSONObject: value).write(to: file)
        return file.path
    }

    private static func pythonString(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
