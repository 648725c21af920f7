import BrokerHarness
import Foundation
import WorkerHarness

/// The package's Dockerfile as the deployment tests read it: its stages, each with the instructions after its
/// `FROM`, continuation lines joined and comments dropped.
struct Dockerfile {
    /// One `FROM` stage.
    struct Stage {
        /// The image reference after `FROM` (`swift:6.3.1-bookworm`, a digest may follow after `@`).
        let image: String
        /// The instructions of the stage, each on one line.
        let instructions: [String]

        /// The arguments of each instruction of `keyword` (`RUN`, `COPY`, `USER`, ...), in order.
        func arguments(of keyword: String) -> [String] {
            instructions.compactMap { line in
                guard line.hasPrefix(keyword + " ") else { return nil }
                return String(line.dropFirst(keyword.count + 1)).trimmingCharacters(in: .whitespaces)
            }
        }

        /// The packages of the stage's one `apt-get install`.
        func aptInstall() throws -> [String] {
            let installs = arguments(of: "RUN").filter { $0.contains("apt-get install") }
            guard installs.count == 1, let install = installs.first else {
                throw HarnessError("the \(image) stage has \(installs.count) apt-get install lines")
            }
            let afterInstall = install.components(separatedBy: "apt-get install")[1].components(separatedBy: "&&")[0]
            return afterInstall.split(separator: " ").map(String.init).filter { !$0.hasPrefix("-") }
        }
    }

    let stages: [Stage]

    /// The Dockerfile at the package root.
    static func load() throws -> Dockerfile {
        try Dockerfile(text: String(contentsOf: Paths.root.appendingPathComponent("Dockerfile"), encoding: .utf8))
    }

    init(text: String) {
        var lines: [String] = []
        var pending = ""
        for raw in text.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            // Comment lines end nothing, even inside a continued instruction, as in Docker's own parser.
            if line.hasPrefix("#") { continue }
            if line.hasSuffix("\\") {
                pending += line.dropLast() + " "
            } else {
                lines.append(pending + line)
                pending = ""
            }
        }
        var stages: [Stage] = []
        for line in lines {
            if line.hasPrefix("FROM ") {
                let image = line.split(separator: " ").dropFirst().first { !$0.hasPrefix("--") }.map(String.init) ?? ""
                stages.append(Stage(image: image, instructions: []))
            } else if let current = stages.popLast() {
                stages.append(Stage(image: current.image, instructions: current.instructions + [line]))
            }
        }
        self.stages = stages
    }

    /// The one stage whose image starts with `prefix` (`swift:`, `debian:`).
    func stage(_ prefix: String) throws -> Stage {
        let matching = stages.filter { $0.image.hasPrefix(prefix) }
        guard matching.count == 1, let stage = matching.first else {
            throw HarnessError("the Dockerfile has \(matching.count) stages FROM \(prefix)…, not one")
        }
        return stage
    }
}
