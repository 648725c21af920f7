"""Turns measured runs into ratios, target checks, a markdown report and the JSON document."""

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


def targets(document):
    """The issues' targets, each with the measured figure and whether it is met (prefetch 200, matched limit)."""
    runs = {(run["mix"], run["variant"], run["prefetch"]): run for run in document["runs"] if run["status"] == "ok"}
    checks = []
    for mix in document["mixes"]:
        for variant, share, most_cpu in (("responder", 0.9, 30), ("responder-memory", 0.95, 20)):
            run = runs.get((mix, variant, TARGET_PREFETCH))
            if run is None:
                continue
            if (vs_limit := run.get("events_per_s_vs_limit")) is not None:
                checks.append((f"{variant} on {mix}: events/s at least {share:.0%} of the matched limit's",
                               f"{vs_limit:.0%}", vs_limit >= share))
            cpu = run["client_cpu_us_per_event"]
            checks.append((f"{variant} on {mix}: client CPU at most {most_cpu} us per event", f"{cpu:.1f} us",
                           cpu <= most_cpu))
        run = runs.get((mix, "responder", TARGET_PREFETCH))
        if mix == "every-update" and run and (vs_peer := run.get("events_per_s_vs_peer")) is not None:
            checks.append(("responder on every-update: events/s at least 5x the peer's", f"{vs_peer:.1f}x",
                           vs_peer >= 5))
        postgres = runs.get((mix, "responder-postgres", TARGET_PREFETCH))
        if run and postgres:
            share = postgres["events_per_s"] / run["events_per_s"]
            checks.append((f"responder-postgres on {mix}: events/s at least 70% of the SQLite row's", f"{share:.0%}",
                           share >= 0.7))
    for replay in document.get("replay", []):
        if replay["status"] == "ok" and replay["mix"] == "redgreen":
            least = 100_000 if replay["store"] == "memory" else 50_000
            rate = replay["events_per_s"]
            checks.append((f"replay with the {replay['store']} store at least {least:,} events/s", f"{rate:,.0f}/s",
                           rate >= least))
    for run in document.get("latency", []):
        if run["status"] == "ok" and run["load"] == 0.5:
            checks.append(("delivery-to-ack p99 under 20 ms at 50% load", f"{run['p99_ms']} ms", run["p99_ms"] < 20))
    soak = document.get("soak")
    if soak and soak.get("status") == "ok":
        summary = soak["rss"]
        if summary["flat"] is not None:
            checks.append(("soak RSS flat after warm-up", f"{summary['growth_mib']:+} MiB", summary["flat"]))
        checks.append(("soak peak RSS at most 64 MiB", f"{summary['peak_rss_mib']} MiB", summary["peak_rss_mib"] <= 64))
    return [{"target": name, "measured": value, "met": met} for name, value, met in checks]


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
        lines += ["", "| mix | replay store | events/s | µs/event (wall) | CPU µs/event | peak RSS MiB |",
                  "|---|---|---:|---:|---:|---:|"]
        for replay in document["replay"]:
            if replay["status"] != "ok":
                lines.append(f"| {replay['mix']} | {replay['store']} | {replay['status']}: {replay['why']} | | | |")
                continue
            lines.append(f"| {replay['mix']} | {replay['store']} | {replay['events_per_s']:,.0f} "
                         f"| {replay['wall_us_per_event']:.1f} "
                         f"| {replay['client_cpu_us_per_event']:.1f} | {replay['peak_rss_kib'] / MIB:.1f} |")
    if document.get("latency"):
        lines += ["", "Delivery-to-ack latency of `responder run` (SQLite, redgreen mix, prefetch 200) fed by "
                      "`responder publish --rate`, from its `responder_end_to_end_duration_seconds` histogram "
                      "(interpolated inside buckets, as histogram_quantile does):", "",
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
        lines += ["", "| target | measured | met |", "|---|---:|---|"]
        lines += [f"| {c['target']} | {c['measured']} | {'yes' if c['met'] else 'NO'} |" for c in checks]
    if document.get("skipped"):
        lines += ["", "Skipped:"] + [f"- {note}" for note in document["skipped"]]
    lines += ["", "Events/s: events divided by the time from starting the client until the last input is acked "
                  "(self-exiting clients: their exit; responder: the moment the harness sees the input queue empty "
                  "and every expected update in the output queue, after which it is sent SIGTERM). Client CPU: user "
                  "+ system time from wait4. Peak RSS: the client's VmHWM. Broker CPU: beam.smp's user + system "
                  "time over the run. Other load: CPU used on the machine by anything else during the run, in "
                  "cores."]
    return "\n".join(lines) + "\n"
