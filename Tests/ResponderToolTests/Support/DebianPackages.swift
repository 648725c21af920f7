import BrokerHarness
import Foundation
import WorkerHarness

/// This Debian 12 machine's package database (dpkg's, no network, no apt lists): who owns a file, and which
/// packages an image gets from a list of installs.
struct DebianPackages {
    private struct Installed {
        /// Pre-Depends and Depends: each group is alternatives.
        let dependencies: [[String]]
    }

    private let installed: [String: Installed]
    /// Virtual package name to the installed packages that provide it.
    private let providers: [String: [String]]

    /// Reads every installed package's dependencies and provides.
    static func load() async throws -> DebianPackages {
        let result = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/dpkg-query"),
            arguments: ["-W", "-f", "${db:Status-Abbrev}\t${Package}\t${Pre-Depends}, ${Depends}\t${Provides}\n"])
        guard result.status == 0 else { throw HarnessError("dpkg-query failed: \(result.output)") }
        var installed: [String: Installed] = [:]
        var providers: [String: [String]] = [:]
        for line in result.output.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 4, fields[0].hasPrefix("ii") else { continue }
            let groups = fields[2].split(separator: ",").map { group in group.split(separator: "|").map(Self.name) }
            installed[fields[1]] = Installed(dependencies: groups.filter { !$0.isEmpty && $0 != [""] })
            for provided in fields[3].split(separator: ",").map(Self.name) where !provided.isEmpty {
                providers[provided, default: []].append(fields[1])
            }
        }
        return DebianPackages(installed: installed, providers: providers)
    }

    /// A package name out of a dependency: `libc6 (>= 2.34)` and `perl:any` are `libc6` and `perl`.
    private static func name(_ text: Substring) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return String(trimmed.prefix { $0 != " " && $0 != ":" && $0 != "(" })
    }

    /// The package that installed `path`, by its path or, on this merged-/usr system, the other spelling of it.
    static func owner(of path: String) async throws -> String {
        let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        var spellings = [path, real]
        for spelling in [path, real] {
            if spelling.hasPrefix("/usr/lib/") || spelling.hasPrefix("/usr/lib64/") {
                spellings.append(String(spelling.dropFirst(4)))
            } else if spelling.hasPrefix("/lib") {
                spellings.append("/usr" + spelling)
            }
        }
        for spelling in spellings {
            let result = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/dpkg"), arguments: ["-S", spelling])
            // "libc6:amd64: /lib/x86_64-linux-gnu/libc.so.6"; a diversion line starts with "diversion by".
            if result.status == 0, let line = result.output.split(separator: "\n").first(where: { !$0.hasPrefix("diversion") }),
                let package = line.split(separator: ":").first
            {
                return String(package)
            }
        }
        throw HarnessError("no installed package owns \(path) (tried \(spellings))")
    }

    /// The installed packages whose priority in the archive is `required`, as apt's package lists (the archive's
    /// Packages files, with the ftp-masters' overrides, which debootstrap reads too) say: a package's own control
    /// file may claim more (liblocale-gettext-perl says `required`, the archive `optional`).
    func requiredInTheArchive() async throws -> Set<String> {
        let result = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/apt-cache"), arguments: ["show", "--no-all-versions"] + installed.keys.sorted())
        var required = Set<String>()
        var package = ""
        for line in result.output.split(separator: "\n") {
            if line.hasPrefix("Package: ") { package = String(line.dropFirst(9)) }
            if line == "Priority: required" { required.insert(package) }
        }
        guard required.contains("dpkg") else {
            throw HarnessError("apt-cache knows no priorities (run apt-get update, as scripts/test does): \(result.output.prefix(500))")
        }
        return required
    }

    /// `packages` and everything they depend on (Pre-Depends and Depends, as `apt-get install
    /// --no-install-recommends` installs them), each group of alternatives met by the first one installed here.
    func closure(of packages: some Sequence<String>) throws -> Set<String> {
        var result = Set<String>()
        var pending = Array(packages)
        while let package = pending.popLast() {
            guard !result.contains(package) else { continue }
            guard let entry = installed[package] else { throw HarnessError("\(package) is not installed on this machine") }
            result.insert(package)
            for group in entry.dependencies {
                let met = group.lazy.compactMap { alternative -> String? in
                    if self.installed[alternative] != nil { return alternative }
                    return self.providers[alternative]?.first
                }.first
                guard let met else { throw HarnessError("\(package) depends on \(group), none of which is installed") }
                pending.append(met)
            }
        }
        return result
    }
}
