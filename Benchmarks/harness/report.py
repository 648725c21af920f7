"""Turns measured runs into ratios, target checks, a markdown report and the JSON document."""

MIB = 1024.0
TARGET_PREFETCH = 200


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
    """Adds each run's events/s and CPU per event as ratios to the limit's and the peer's at the same prefetch."""
    best = {(run["variant"], run["prefetch"]): run for run in runs if run["status"] == "ok"}
    for run in runs:
        if run["status"] != "ok":
            continue
        for baseline in ("limit", "peer"):
            other = best.get((baseline, run["prefetch"]))
            run[f"events_per_s_vs_{baseline}"] = (
                round(run["events_per_s"] / other["events_per_s"], 3) if other else None)
            run[f"cpu_vs_{baseline}"] = (
                round(run["client_cpu_us_per_event"] / other["client_cpu_us_per_event"], 3) if other else None)


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
    """The issue's targets for the responder, each with the measured figure and whether it is met."""
    runs = {(run["variant"], run["prefetch"]): run for run in document["runs"] if run["status"] == "ok"}
    responder = runs.get(("responder", TARGET_PREFETCH))
    checks = []
    if responder:
        vs_limit = responder.get("events_per_s_vs_limit")
        vs_peer = responder.get("events_per_s_vs_peer")
        if vs_limit is not None:
            checks.append(("events/s at least 90% of the limit's (prefetch 200)", f"{vs_limit:.0%}", vs_limit >= 0.9))
        if vs_peer is not None:
            checks.append(("events/s at least 5x the peer's (prefetch 200)", f"{vs_peer:.1f}x", vs_peer >= 5))
        cpu = max(run["client_cpu_us_per_event"] for key, run in runs.items() if key[0] == "responder")
        checks.append(("client CPU at most 25 us per event (worst prefetch)", f"{cpu:.1f} us", cpu <= 25))
    for replay in document.get("replay", []):
        if replay["status"] == "ok" and replay["store"] == "memory":
            rate = replay["events_per_s"]
            checks.append(("replay at least 100,000 events/s (in-memory store)", f"{rate:,.0f}/s", rate >= 100_000))
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
        f"Machine: {machine['nproc']} CPUs ({machine['cpu_model']}), {machine['memory_gib']} GiB, Linux "
        f"{machine['kernel']}; RabbitMQ {machine['rabbitmq']} on Erlang/OTP {machine['erlang_otp']}, "
        f"librabbitmq {machine['librabbitmq']}, Python {machine['python']} with aio-pika {machine['aio_pika']}.",
        f"Input: {document['events']:,} RedGreen events ({document['expected_updates']:,} of them yield an update), "
        "pre-filled in the quorum queue before each run; both queues deleted and redeclared between runs"
        + (f"; each row is the median of {document['repeat']} runs." if document["repeat"] > 1 else "."),
        "",
        "| variant | prefetch | events/s | vs limit | vs peer | client CPU µs/event | peak RSS MiB "
        "| broker CPU µs/event | other load (cores) | wall s |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for run in document["runs"]:
        if run["status"] != "ok":
            lines.append(f"| {run['variant']} | {run.get('prefetch', '')} | {run['status']}: {run['why']} "
                         "| | | | | | | |")
            continue
        lines.append(
            f"| {run['variant']} | {run['prefetch']} | {run['events_per_s']:,.0f} "
            f"| {_ratio(run['events_per_s_vs_limit'])} | {_ratio(run['events_per_s_vs_peer'])} "
            f"| {run['client_cpu_us_per_event']:.1f} | {run['peak_rss_kib'] / MIB:.1f} "
            f"| {run['broker_cpu_us_per_event']:.1f} | {run['other_load_cores']:.2f} | {run['wall_s']:.2f} |")
    if document.get("replay"):
        lines += ["", "| replay store | events/s | µs/event (wall) | CPU µs/event | peak RSS MiB |",
                  "|---|---:|---:|---:|---:|"]
        for replay in document["replay"]:
            if replay["status"] != "ok":
                lines.append(f"| {replay['store']} | {replay['status']}: {replay['why']} | | | |")
                continue
            lines.append(f"| {replay['store']} | {replay['events_per_s']:,.0f} | {replay['wall_us_per_event']:.1f} "
                         f"| {replay['client_cpu_us_per_event']:.1f} | {replay['peak_rss_kib'] / MIB:.1f} |")
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
