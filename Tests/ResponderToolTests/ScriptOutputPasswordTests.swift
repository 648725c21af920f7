import BrokerHarness
import Foundation
import Testing

/// The scripts print where their servers are without the passwords in the URLs (the standard: passwords appear
/// nowhere): every line that echoes a `…_URL` or `…_URLS` variable drops each URL's credentials on the way out.
@Suite struct ScriptOutputPasswordTests {
    /// What drops `user:password@` from every URL of a line.
    static let withoutCredentials = #"sed -E 's#//[^@/]*@#//#g'"#

    /// The lines of the scripts in scripts/ that echo a URL variable, with their script's name.
    static func urlEchoes() throws -> [(script: String, line: String)] {
        let folder = Paths.root.appendingPathComponent("scripts")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().flatMap { name in
            let script = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            return script.split(separator: "\n")
                .filter { $0.contains(#/\becho\b.*\$\{?[A-Z][A-Z0-9_]*_URLS?\b/#) }
                .map { (name, String($0)) }
        }
    }

    @Test func everyURLAScriptEchoesLosesItsCredentials() throws {
        let echoes = try Self.urlEchoes()
        #expect(echoes.contains { $0.script == "test" }, "the pattern finds scripts/test's broker line")
        for echo in echoes {
            #expect(echo.line.contains("| \(Self.withoutCredentials)"), "scripts/\(echo.script) prints a password: \(echo.line)")
        }
    }

    @Test func theFilterKeepsTheAddressesAndDropsThePasswords() throws {
        let sed = Process()
        sed.executableURL = URL(fileURLWithPath: "/bin/sh")
        sed.arguments = ["-c", "echo \"$LINE\" | \(Self.withoutCredentials)"]
        sed.environment = [
            "PATH": "/usr/bin:/bin",
            "LINE": "at amqp://guest:s3cret@127.0.0.1:5672/%2F and amqps://user:p%40ss@localhost:5671/%2F",
        ]
        let output = Pipe()
        sed.standardOutput = output
        try sed.run()
        sed.waitUntilExit()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(printed == "at amqp://127.0.0.1:5672/%2F and amqps://localhost:5671/%2F\n")
    }
}
