import Foundation

/// What validate.py (Python `jsonschema`, Draft202012Validator) says about the schemas and the corpus.
struct SchemaHarnessReport: Decodable, Sendable {
    struct Verdict: Decodable, Sendable {
        let valid: Bool
        let reason: String
    }

    /// Schema file name to nil when it is a valid draft 2020-12 schema, else the reason.
    let schemas: [String: String?]
    /// Corpus key (`valid/x.json`) to the validator's verdict.
    let documents: [String: Verdict]
}

struct SchemaHarnessFailure: Error, CustomStringConvertible {
    let description: String
}

/// The harness runs once per test process (python3 as a child process), however many tests read its report.
let schemaHarnessReport: Result<SchemaHarnessReport, SchemaHarnessFailure> = runSchemaHarness()

private func runSchemaHarness() -> Result<SchemaHarnessReport, SchemaHarnessFailure> {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", ContractFiles.harness.path, ContractFiles.schemas.path, ContractFiles.corpus.path]
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    do {
        try process.run()
    } catch {
        return .failure(SchemaHarnessFailure(description: "cannot start python3 (\(error)): run scripts/test"))
    }
    // Read before waiting, so a report larger than the pipe's buffer cannot block the child.
    let report = output.fileHandleForReading.readDataToEndOfFile()
    let diagnostics = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        return .failure(SchemaHarnessFailure(description: """
            validate.py exited with \(process.terminationStatus); it needs python3 with the jsonschema package, \
            which scripts/test installs:
            \(diagnostics)
            """))
    }
    do {
        return .success(try JSONDecoder().decode(SchemaHarnessReport.self, from: report))
    } catch {
        return .failure(SchemaHarnessFailure(description: "validate.py printed no report: \(error)"))
    }
}
