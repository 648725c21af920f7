"""Turns measured runs into ratios, target checks, a markdown report and the JSON document."""
import instructions

MIB = 1024.0
TARGET_PREFETCH = 200
LATENCY_LOADS = (0.5, 0.9)  # fractions of responder run's measured events/s


def median_run(attempts):
    """The run with the median events/s of repeated attempts (a failed attempt makes the whole result failed), with
    every attempt's events/s kept beside it: on a shared machine one run can be far off."""
    failed = [run for run in attempts if run["status"] != "ok"]
    if failed:
        return failed[0]
    ordered = sorted(attempts, key=lambda run: run["events_per_s"])
    median = ordered[(len(ordered) - 1) // 2]
    if len(attempts) > 1:
        median["attempts_events_per_s"] = [run["events_per_s"] for run in attempts]
    return median


def add_ratios(runs):
    """Adds each run's events/s and CPU per event as ratios to the limit's and the peer's on the same mix and at the
    same prefetch: the limit there does the same broker work as the responder."""
    best = {(run["mix"], run["variant"], run["prefetch"]): run for run in runs if run["status"] == "ok"}
    for run in runs:
        if run["status"] != "ok":
            continue
        for baseline in ("limit", "peer"):
            other = best.get((run["mix"], baseline, run["prefetch"]))
            run[f"events_per_s_vs_{baseline}"] = (
                round(run["events_per_s"] / other["events_per_s"], 3) if other else None)
            run[f"cpu_vs_{baseline}"] = (
                round(run["client_cpu_us_per_event"] / other["client_cpu_us_per_event"], 3) if other else None)


def versus_baseline(document):
    """Each row of this checkout beside its twin at the --baseline revision (same mix, variant and prefetch): how
    many times the baseline's events/s it drains and how much of the baseline's client CPU per event it takes."""
    if not document.get("baseline"):
        return []
    suffix = "@" + document["baseline"]["commit"]
    runs = {(run["mix"], run["variant"], run["prefetch"]): run for run in document["runs"] if run["status"] == "ok"}
    rows = []
    for (mix, variant, prefetch), run in runs.items():
        if (before := runs.get((mix, variant + suffix, prefetch))) is not None:
            rows.append({"mix": mix, "variant": variant, "prefetch": prefetch,
                         "events_per_s": run["events_per_s"], "baseline_events_per_s": before["events_per_s"],
                         "events_per_s_ratio": round(run["events_per_s"] / before["events_per_s"], 2),
                         "cpu_ratio": round(run["client_cpu_us_per_event"] / before["client_cpu_us_per_event"], 2)})
    return rows


def soak_summary(samples, events, warm_up_fraction=0.2):
    """Whether RSS stays flat once warm: after the first 20% of the events are taken, the mean RSS of the last
    quarter of the samples may exceed that of the first quarter by at most 5% (and 4 MiB, for tiny processes)."""
    warm = [sample for sample in samples if sample["taken"] >= warm_up_fraction * events]
    summary = {"samples": len(samples), "warm_samples": len(warm),
               "peak_rss_mib": round(max((s["rss_kib"] for s in samples), default=0) / MIB, 1)}
    if len(warm) < 8:
        summary["flat"] = None
        summary["why"] = "too few samples after warm-up to judge"
        return summary
    quarter = len(warm) // 4
    early = sum(s["rss_kib"] for s in warm[:quarter]) / quarter
    late = sum(s["rss_kib"] for s in warm[-quarter:]) / quarter
    allowed = max(4 * MIB, 0.05 * early)
    summary.update(early_rss_mib=round(early / MIB, 1), late_rss_mib=round(late / MIB, 1),
                   growth_mib=round((late - early) / MIB, 1), flat=late - early <= allowed)
    return summary


# Issue 24's targets at prefetch 200 against the matched limit: (variant, least share of the limit's events/s, most
# client CPU µs per event or None).
ROW_TARGETS = (("responder-memory", 0.9, 15), ("responder", 0.75, 25), ("responder-postgres", 0.6, None))


def targets(document):
    """The issue's targets, each with the measured figure, whether it is met and, when missed, by how much."""
    runs = {(run["mix"], run["variant"], run["prefetch"]): run for run in document["runs"] if run["status"] == "ok"}
    checks = []

    def check(name, measured, met, miss):
        checks.append((name, measured, met, None if met else miss))

    for mix in document["mixes"]:
        limit = runs.get((mix, "limit", TARGET_PREFETCH))
        for variant, share, most_cpu in ROW_TARGETS:
            run = runs.get((mix, variant, TARGET_PREFETCH))
            if run is None:
                continue
            if (vs_limit := run.get("events_per_s_vs_limit")) is not None:
                check(f"{variant} on {mix}: events/s at least {share:.0%} of the matched limit's", f"{vs_limit:.2f}",
                      vs_limit >= share, f"{share - vs_limit:.2f} of the limit short")
            if most_cpu is not None:
                cpu = run["client_cpu_us_per_event"]
                check(f"{variant} on {mix}: client CPU at most {most_cpu} µs per event", f"{cpu:.1f} µs",
                      cpu <= most_cpu, f"{cpu - most_cpu:.1f} µs over")
        run = runs.get((mix, "responder", TARGET_PREFETCH))
        if run and limit:
            times = run["broker_cpu_us_per_event"] / limit["broker_cpu_us_per_event"]
            check(f"responder on {mix}: broker CPU per event at most 1.1 times the limit's", f"{times:.2f} times",
                  times <= 1.1, f"{times - 1.1:.2f} times over")
        if mix == "every-update" and run and (vs_peer := run.get("events_per_s_vs_peer")) is not None:
            check("responder on every-update: events/s at least 5 times the peer's", f"{vs_peer:.1f} times",
                  vs_peer >= 5, f"{5 - vs_peer:.1f} times short")
    for replay in document.get("replay", []):
        if replay["status"] == "ok" and replay["mix"] == "redgreen" and replay["store"] == "memory":
            rate = replay["events_per_s"]
            check("replay in memory at least 120,000 events/s", f"{rate:,.0f}/s", rate >= 120_000,
                  f"{120_000 - rate:,.0f}/s short")
    for run in document.get("latency", []):
        if run["status"] == "ok" and run["load"] == 0.5:
            for quantile, most in (("p99", 20), ("p99.9", 50)):
                measured = run[f"{quantile}_ms"]
                check(f"delivery-to-ack {quantile} under {most} ms at 50% load", f"{measured} ms", measured < most,
                      f"{measured - most:.1f} ms over")
    soak = document.get("soak")
    if soak and soak.get("status") == "ok":
        summary = soak["rss"]
        if summary["flat"] is not None:
            check("soak RSS flat after warm-up", f"{summary['growth_mib']:+} MiB", summary["flat"], "grew")
        check("soak peak RSS at most 64 MiB", f"{summary['peak_rss_mib']} MiB", summary["peak_rss_mib"] <= 64,
              f"{summary['peak_rss_mib'] - 64:.1f} MiB over")
    return [{"target": name, "measured": value, "met": met, "missed_by": miss} for name, value, met, miss in checks]


def _ratio(value):
    return "" if value is None else f"{value:.2f}"


def markdown(document):
    machine = document["machine"]
    lines = [
        f"# Benchmark {document['started']}",
        "",
        f"Commit {document['commit']}, `{document['command']}`.",
        "",
        f"Machine: {machine['nproc']} CPUs ({machine['cpu_model']}), {machine['memory_gib']} GiB, Linux "
        f"{machine['kernel']}; RabbitMQ {machine['rabbitmq']} on Erlang/OTP {machine['erlang_otp']}, "
        f"librabbitmq {machine['librabbitmq']}, Python {machine['python']} with aio-pika {machine['aio_pika']}.",
        "Input: " + "; ".join(f"{mix}: {document['events']:,} events, {entry['expected_updates']:,} of them yield an "
                              "update" for mix, entry in document["mixes"].items())
        + ". Pre-filled in the quorum queue before each run; both queues deleted and redeclared between runs"
        + (f"; each row is the median of {document['repeat']} runs." if document["repeat"] > 1 else ".")
        + " The limit publishes for exactly the inputs the responder answers, so `vs limit` compares like with like.",
        "",
        "| mix | variant | prefetch | events/s | vs limit | vs peer | client CPU µs/event | peak RSS MiB "
        "| broker CPU µs/event | other load (cores) | wall s |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for run in document["runs"]:
        if run["status"] != "ok":
            lines.append(f"| {run['mix']} | {run['variant']} | {run.get('prefetch', '')} | {run['status']}: "
                         f"{run['why']} | | | | | | | |")
            continue
        lines.append(
            f"| {run['mix']} | {run['variant']} | {run['prefetch']} | {run['events_per_s']:,.0f} "
            f"| {_ratio(run['events_per_s_vs_limit'])} | {_ratio(run['events_per_s_vs_peer'])} "
            f"| {run['client_cpu_us_per_event']:.1f} | {run['peak_rss_kib'] / MIB:.1f} "
            f"| {run['broker_cpu_us_per_event']:.1f} | {run['other_load_cores']:.2f} | {run['wall_s']:.2f} |")
    if compared := versus_baseline(document):
        commit = document["baseline"]["commit"]
        lines += ["", f"Against {document['baseline']['revision']} ({commit}), each row beside its twin of this run:",
                  "", f"| mix | variant | prefetch | events/s | at {commit} | times | client CPU share |",
                  "|---|---|---:|---:|---:|---:|---:|"]
        lines += [f"| {row['mix']} | {row['variant']} | {row['prefetch']} | {row['events_per_s']:,.0f} "
                  f"| {row['baseline_events_per_s']:,.0f} | {row['events_per_s_ratio']:.2f} | {row['cpu_ratio']:.2f} |"
                  for row in compared]
    if document.get("replay"):
        lines += ["", "| mix | replay store | events/s | µs/event (wall) | CPU µs/event | instructions/event "
                      "| peak RSS MiB |", "|---|---|---:|---:|---:|---:|---:|"]
        for replay in document["replay"]:
            if replay["status"] != "ok":
                lines.append(f"| {replay['mix']} | {replay['store']} | {replay['status']}: {replay['why']} | | | | |")
                continue
            lines.append(f"| {replay['mix']} | {replay['store']} | {replay['events_per_s']:,.0f} "
                         f"| {replay['wall_us_per_event']:.1f} | {replay['client_cpu_us_per_event']:.1f} "
                         f"| {replay['instructions_per_event']:,} | {replay['peak_rss_kib'] / MIB:.1f} |")
        counted = "; ".join(f"{key} {machine[key]}" for key in instructions.COUNTED_UNDER if key in machine)
        lines += ["", f"Instructions per event: callgrind on the fixture's first {instructions.LINES:,} lines, net of "
                      "an empty fixture's start-up (the binary stripped of debug information)"
                      + (f"; counted under {counted}." if counted else ".")]
    if document.get("latency"):
        lines += ["", "Delivery-to-ack latency of `responder run` (SQLite, redgreen mix, prefetch 200) fed by "
                      "`responder publish --rate`, from its `responder_end_to_end_duration_seconds` histogram: from "
                      "the socket read of each delivery to its ack handed to the connection (interpolated inside "
                      "buckets, as histogram_quantile does):", "",
                  "| load | events/s | p50 ms | p99 ms | p99.9 ms |", "|---:|---:|---:|---:|---:|"]
        for run in document["latency"]:
            if run["status"] != "ok":
                lines.append(f"| {run['load']:.0%} | {run['status']}: {run['why']} | | | |")
                continue
            lines.append(f"| {run['load']:.0%} | {run['rate']:,.0f} | {run['p50_ms']} | {run['p99_ms']} "
                         f"| {run['p99.9_ms']} |")
    soak = document.get("soak")
    if soak:
        if soak["status"] == "ok":
            rss = soak["rss"]
            verdict = (rss["why"] if rss["flat"] is None else
                       f"after warm-up {rss['early_rss_mib']} -> {rss['late_rss_mib']} MiB, "
                       f"{'flat' if rss['flat'] else 'NOT flat'}")
            lines += ["", f"Soak: {soak['events']:,} events through responder run at prefetch {soak['prefetch']}, "
                          f"{soak['events_per_s']:,.0f} events/s; RSS sampled every second: peak "
                          f"{rss['peak_rss_mib']} MiB; {verdict}."]
        else:
            lines += ["", f"Soak: {soak['status']}: {soak['why']}"]
    checks = document.get("targets") or []
    if checks:
        lines += ["", "Issue 24's targets (prefetch 200, matched limit):", "", "| target | measured | met |",
                  "|---|---:|---|"]
        lines += [f"| {c['target']} | {c['measured']} | {'yes' if c['met'] else 'NO, ' + c['missed_by']} |"
                  for c in checks]
    if document.get("skipped"):
        lines += ["", "Skipped:"] + [f"- {note}" for note in document["skipped"]]
    lines += ["", "Events/s: events divided by the time from starting the client until the last input is acked "
                  "(self-exiting clients: their exit; responder: the moment the harness sees the input queue empty "
                  "and every expected update in the output queue, after which it is sent SIGTERM). Client CPU: user "
                  "+ system time from wait4. Peak RSS: the client's VmHWM. Broker CPU: beam.smp's user + system "
                  "time over the run. Other load: CPU used on the machine by anything else during the run, in "
                  "cores."]
    return "\n".join(lines) + "\n"
