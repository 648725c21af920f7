import BrokerHarness
import Foundation
import Testing
import WorkerHarness

/// scripts/bench writes each run as a dated results file under Benchmarks/results/, and `--check` compares a run
/// with Benchmarks/thresholds.json: a regression must fail it, naming the row and by how much it missed.
@Suite struct BenchResultsTests {
    /// A run as the harness's JSON holds it: one row of each kind the thresholds can name.
    static var run: [String: Any] { [
        "runs": [
            row("redgreen", "limit", vsLimit: 1.0, cpu: 8.2),
            row("redgreen", "responder", vsLimit: 0.24, cpu: 90.0),
            row("redgreen", "responder-memory", vsLimit: 0.6, cpu: 52.5),
            row("every-update", "responder", vsLimit: 0.5, cpu: 100.0),
            ["mix": "every-update", "variant": "responder-memory", "prefetch": 200, "status": "failed",
             "why": "stalled at 10 of 20 expected outputs"],
        ],
        "replay": [
            ["mix": "redgreen", "store": "memory", "status": "ok", "client_cpu_us_per_event": 14.2,
             "instructions_per_event": 130_000],
            ["mix": "every-update", "store": "memory", "status": "ok", "client_cpu_us_per_event": 22.4,
             "instructions_per_event": 160_000],
            // As a results file written before replay counted instructions.
            ["mix": "every-update", "store": "sqlite", "status": "ok", "client_cpu_us_per_event": 35.0],
        ],
        "latency": [["load": 0.5, "status": "ok", "p50_ms": 4.0, "p99_ms": 29.4, "p99.9_ms": 45.0]],
    ] }

    static func row(_ mix: String, _ variant: String, vsLimit: Double, cpu: Double) -> [String: Any] {
        ["mix": mix, "variant": variant, "prefetch": 200, "status": "ok", "events_per_s_vs_limit": vsLimit,
         "client_cpu_us_per_event": cpu]
    }

    static func check(_ thresholds: [String: Any]) async throws -> (status: Int32, output: String) {
        let folder = try Paths.temporaryFolder("bench-check")
        defer { try? FileManager.default.removeItem(at: folder) }
        let results = try BenchHarness.writeJSON(run, "results.json", in: folder)
        let limits = try BenchHarness.writeJSON(thresholds, "thresholds.json", in: folder)
        return try await BenchHarness.check([results, "--thresholds", limits])
    }

    @Test func aRunThatMeetsEveryThresholdPasses() async throws {
        let result = try await Self.check([
            "prefetch": 200,
            "rows": [["mix": "redgreen", "variant": "responder", "min_vs_limit": 0.2, "max_client_cpu_us_per_event": 100]],
            "replay": [
                ["mix": "redgreen", "store": "memory", "max_client_cpu_us_per_event": 15.5,
                 "max_instructions_per_event": 130_000],
            ],
            "latency": [["load": 0.5, "max_p99_ms": 40, "max_p99.9_ms": 50]],
        ])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("meets all 3 thresholds"), "\(result.output)")
    }

    /// A count far under its bound (savings elsewhere loosen every guard), or a bound counted under another
    /// toolchain, is said beside the verdict: a note, never a miss.
    @Test func aLooseBoundAndAnotherToolchainAreNotedNotMissed() async throws {
        let folder = try Paths.temporaryFolder("bench-notes")
        defer { try? FileManager.default.removeItem(at: folder) }
        var run = Self.run
        run["machine"] = ["swift": "Swift version 6.2", "arch": "x86_64"]
        let results = try BenchHarness.writeJSON(run, "run.json", in: folder)
        let counted = folder.appendingPathComponent("results")
        try FileManager.default.createDirectory(at: counted, withIntermediateDirectories: true)
        _ = try BenchHarness.writeJSON(
            ["machine": ["swift": "Swift version 6.1", "arch": "x86_64"]], "counted.json", in: counted)
        let limits = try BenchHarness.writeJSON([
            "prefetch": 200,
            "replay": [["mix": "redgreen", "store": "memory", "max_instructions_per_event": 140_000,
                        "instructions_from": "counted.json"]],
        ], "thresholds.json", in: folder)
        let result = try await BenchHarness.check([results, "--thresholds", limits])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.split(separator: "\n") == [
            "bench: note: redgreen replay memory: 130,000 instructions per event, 7.1% under its bound 140,000: count "
                + "its guards without each fast path again and tighten the bound",
            "bench: note: redgreen replay memory: its bound was counted under swift 'Swift version 6.1', this run "
                + "under 'Swift version 6.2': a count moves with it",
            "bench: the run meets all 1 thresholds",
        ])
    }

    /// The µs bounds are absolute: a limit that spends far more or less CPU an event than it did where they were set
    /// says the machine's speed moved, a note beside the verdict; within a day's spread it says nothing.
    @Test func aLimitOfAnotherSpeedThanTheBoundsWereSetBesideIsNoted() async throws {
        let thresholds: [String: Any] = [
            "prefetch": 200,
            "rows": [["mix": "redgreen", "variant": "responder", "max_client_cpu_us_per_event": 100]],
        ]
        let slower = try await Self.check(
            thresholds.merging(["limit_client_cpu_us_per_event": ["redgreen": 5.5, "every-update": 1.5]]) { $1 })
        #expect(slower.status == 0, "\(slower.output)")
        #expect(slower.output.split(separator: "\n") == [
            "bench: note: redgreen: the limit spent 8.2 µs client CPU per event in this run and 5.5 where the µs "
                + "bounds were set: the machine's speed differs, so those bounds compare days, not code; compare "
                + "with a --baseline run and set them again from it",
            "bench: the run meets all 1 thresholds",
        ], "every-update has no limit row in the run")
        let alike = try await Self.check(thresholds.merging(["limit_client_cpu_us_per_event": ["redgreen": 7.0]]) { $1 })
        #expect(alike.output.split(separator: "\n") == ["bench: the run meets all 1 thresholds"])
    }

    @Test func eachMissedThresholdFailsTheCheckAndSaysByHowMuch() async throws {
        let result = try await Self.check([
            "prefetch": 200,
            "rows": [
                ["mix": "redgreen", "variant": "responder", "min_vs_limit": 0.3],
                ["mix": "redgreen", "variant": "responder-memory", "min_vs_limit": 0.5, "max_client_cpu_us_per_event": 50],
                ["mix": "every-update", "variant": "responder", "min_vs_limit": 0.4, "max_client_cpu_us_per_event": 120],
                ["mix": "every-update", "variant": "responder-memory", "min_vs_limit": 0.5],
                ["mix": "every-update", "variant": "responder-postgres", "min_vs_limit": 0.2],
            ],
            "replay": [
                ["mix": "every-update", "store": "memory", "max_client_cpu_us_per_event": 20.5],
                ["mix": "redgreen", "store": "sqlite", "max_client_cpu_us_per_event": 60],
                ["mix": "redgreen", "store": "memory", "max_instructions_per_event": 125_000],
                ["mix": "every-update", "store": "sqlite", "max_instructions_per_event": 300_000],
            ],
            "latency": [["load": 0.5, "max_p99_ms": 20], ["load": 0.9, "max_p99_ms": 80]],
        ])
        #expect(result.status == 1, "\(result.output)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines == [
            "bench: regression: redgreen responder prefetch 200: 0.240 of the limit, threshold 0.3: 0.06 short (20%)",
            "bench: regression: redgreen responder-memory prefetch 200: 52.5 µs client CPU per event, threshold 50: "
                + "2.50 µs over (5%)",
            "bench: regression: every-update responder-memory prefetch 200: failed: stalled at 10 of 20 expected outputs",
            "bench: regression: every-update responder-postgres prefetch 200: not measured in this run",
            "bench: regression: every-update replay memory: 22.4 µs CPU per event, threshold 20.5: 1.90 µs over (9%)",
            "bench: regression: redgreen replay sqlite: not measured in this run",
            "bench: regression: redgreen replay memory: 130,000 instructions per event, threshold 125,000: 5,000 over (4.0%)",
            "bench: regression: every-update replay sqlite: no instructions per event in this run",
            "bench: regression: delivery-to-ack at 50% load: p99 29.4 ms, threshold 20 ms: 9.40 ms over (47%)",
            "bench: regression: delivery-to-ack at 90% load: not measured in this run (scripts/bench --latency)",
        ])
    }

    /// The committed thresholds hold for the runs they were set from (their `from`, the file's or a row's own, and a
    /// replay row's `instructions_from`, each a committed results file): a threshold tighter than what was measured,
    /// or naming a row the harness does not write, fails here rather than in the next bench.
    @Test func theCommittedThresholdsHoldForTheRunsTheyWereSetFrom() async throws {
        let benchmarks = Paths.root.appendingPathComponent("Benchmarks")
        let thresholds = try JSONSerialization.jsonObject(
            with: Data(contentsOf: benchmarks.appendingPathComponent("thresholds.json"))) as? [String: Any]
        let from = try #require(thresholds?["from"] as? String)
        let rows = ["rows", "replay", "latency"].flatMap { thresholds?[$0] as? [[String: Any]] ?? [] }
        let files = Set([from] + rows.flatMap { row in ["from", "instructions_from"].compactMap { row[$0] as? String } })
        #expect(files.count > 1, "the replay rows name a run of their own")
        for row in rows where row["max_instructions_per_event"] != nil {
            #expect(row["instructions_from"] is String, "\(row["mix"] ?? "") \(row["store"] ?? ""): no instructions_from")
        }
        for file in files.sorted() {
            let result = try await BenchHarness.check([benchmarks.appendingPathComponent("results/\(file)").path, "--set-from"])
            #expect(result.status == 0, "\(file): \(result.output)")
            #expect(!result.output.contains("meets all 0 thresholds"), "\(file): \(result.output)")
        }
    }

    /// Every replay row bounds instructions per event and names the fast paths it guards; each of those says at its
    /// code which row fails without it, with that row's bound, and the row lists it (issue 24 item 4).
    @Test func eachGuardedFastPathNamesAReplayRowThatListsIt() throws {
        let thresholds = try JSONSerialization.jsonObject(
            with: Data(contentsOf: Paths.root.appendingPathComponent("Benchmarks/thresholds.json"))) as? [String: Any]
        let rows = try #require(thresholds?["replay"] as? [[String: Any]])
        let sources = Paths.root.appendingPathComponent("Sources")
        let files = try FileManager.default.subpathsOfDirectory(atPath: sources.path)
        for row in rows {
            let name = "\(row["mix"] ?? "") \(row["store"] ?? "")"
            #expect((row["max_instructions_per_event"] as? Int ?? 0) > 0, "\(name)")
            let guards = row["guards"] as? [String] ?? []
            #expect(!guards.isEmpty, "\(name)")
            for fastPath in guards {
                let file = try #require(fastPath.split(separator: "(").last?.dropLast(), "\(fastPath)")
                let path = try #require(files.first { $0.hasSuffix("/\(file)") }, "\(file)")
                let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
                let marker = "Kept while it pays: Benchmarks/thresholds.json's replay row \""
                let line = try #require(text.split(separator: "\n").first { $0.contains(marker) }, "\(path)")
                let named = line.split(separator: "\"")[1]
                let bound = try #require(rows.first { "\($0["mix"] ?? "") \($0["store"] ?? "")" == named }, "\(line)")
                let count = (bound["max_instructions_per_event"] as? Int ?? 0).formatted(.number.locale(Locale(identifier: "en_US")))
                #expect(line.contains("(\(count) instructions an event) fails without it"), "\(line)")
                #expect((bound["guards"] as? [String] ?? []).contains(fastPath), "\(line)")
            }
        }
        // And the other way: no code says it is kept while it pays unless a row lists it.
        let guarded: [String] = rows.flatMap { $0["guards"] as? [String] ?? [] }
        let listed = Set(guarded.compactMap { $0.split(separator: "(").last.map { String($0.dropLast()) } })
        for path in files where path.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            guard text.contains("Kept while it pays:") else { continue }
            let file = path.split(separator: "/").last.map(String.init) ?? path
            #expect(listed.contains(file), "\(path) says it is kept while it pays, but no replay row's guards list it")
        }
    }

    /// With `--set-from`, a results file is checked only against the thresholds set from it: a replay row's
    /// instructions bound by its `instructions_from`, its other bounds by its `from`.
    @Test func setFromChecksOnlyTheThresholdsSetFromThatFile() async throws {
        let folder = try Paths.temporaryFolder("bench-set-from")
        defer { try? FileManager.default.removeItem(at: folder) }
        let results = try BenchHarness.writeJSON(Self.run, "mine.json", in: folder)
        let limits = try BenchHarness.writeJSON([
            "from": "older.json", "prefetch": 200,
            "rows": [["mix": "redgreen", "variant": "responder", "min_vs_limit": 0.9]],
            "replay": [
                ["mix": "redgreen", "store": "memory", "max_client_cpu_us_per_event": 15.5, "from": "mine.json",
                 "max_instructions_per_event": 100_000],
                ["mix": "every-update", "store": "memory", "max_client_cpu_us_per_event": 20.5, "from": "mine.json"],
                ["mix": "every-update", "store": "memory", "max_client_cpu_us_per_event": 10,
                 "max_instructions_per_event": 150_000, "instructions_from": "mine.json"],
            ],
        ], "thresholds.json", in: folder)
        let result = try await BenchHarness.check([results, "--thresholds", limits, "--set-from"])
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.split(separator: "\n") == [
            "bench: regression: every-update replay memory: 22.4 µs CPU per event, threshold 20.5: 1.90 µs over (9%)",
            "bench: regression: every-update replay memory: 160,000 instructions per event, threshold 150,000: "
                + "10,000 over (6.7%)",
        ])
    }

    /// Two runs of one commit on one day both stay: the second gets the time in its name.
    @Test func resultsFilesAreNamedByDayAndCommitAndNeverOverwritten() async throws {
        let folder = try Paths.temporaryFolder("bench-results")
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = """
            import json; from pathlib import Path; import results
            for run in ("first", "second"):
                document = {"started": "2026-11-25T21-50-07Z", "commit": "abc1234", "run": run}
                print(results.write(Path(sys.argv[1]), document, f"# {run}\\n").name)
            """
        let result = try await BenchHarness.python(script, [folder.path])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.split(separator: "\n") == ["2026-11-25-abc1234.json", "2026-11-25-215007-abc1234.json"])
        let first = try String(contentsOf: folder.appendingPathComponent("2026-11-25-abc1234.md"), encoding: .utf8)
        #expect(first == "# first\n")
        let second = try Data(contentsOf: folder.appendingPathComponent("2026-11-25-215007-abc1234.json"))
        #expect((try JSONSerialization.jsonObject(with: second) as? [String: Any])?["run"] as? String == "second")
    }

    /// A results file gives the command as a person would type it again, quoted where a shell needs it.
    @Test func theCommandIsTheOneToTypeAgain() async throws {
        let result = try await BenchHarness.python(
            "import results; print(results.command(sys.argv[1:]))", ["--only", "limit,peer", "--results", "my runs"])
        #expect(result.output == "scripts/bench --only limit,peer --results 'my runs'\n", "\(result.output)")
    }

    /// A results file names the commit it measured, marked when the checkout had uncommitted changes.
    @Test func theCommitIsMarkedDirtyWithUncommittedChanges() async throws {
        let repo = try Paths.temporaryFolder("bench-commit")
        defer { try? FileManager.default.removeItem(at: repo) }
        let script = """
            import subprocess; from pathlib import Path; import results
            repo = sys.argv[1]
            git = lambda *a: subprocess.run(["git", "-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", *a], check=True, capture_output=True)
            git("init", "-q"); Path(repo, "f").write_text("1"); git("add", "f"); git("commit", "-qm", "f")
            head = subprocess.run(["git", "-C", repo, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
            print(results.commit(Path(repo)) == head)
            Path(repo, "f").write_text("2")
            print(results.commit(Path(repo)) == head + "-dirty")
            """
        let result = try await BenchHarness.python(script, [repo.path])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output == "True\nTrue\n", "\(result.output)")
    }
}
