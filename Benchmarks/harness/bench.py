#!/usr/bin/env python3
"""Benchmarks the responder against the physical limit and an aio-pika peer, on one broker.

This is the harness behind scripts/bench, which installs what is needed, builds, starts the broker and runs it.

For each mix (fixture), variant and prefetch it resets the queues, fills the input queue with the same N events,
runs the client until every event is processed, and measures it; the limit does the same broker work as the
responder on each mix. Then `responder replay` (timed, and counted under callgrind), with --latency the
delivery-to-ack quantiles at 50% and 90% of `responder run`'s measured rate, and with --soak a long run with RSS
sampled every second. Writes the results file Benchmarks/results/DATE-COMMIT.{json,md} (each client's log goes to
bench-results/, git-ignored), prints the markdown, and with --check compares the run with
Benchmarks/thresholds.json.
"""
import argparse
import asyncio
import dataclasses
import json
import os
import platform
import subprocess
import sys
from datetime import datetime, timezone
from importlib.metadata import version
from pathlib import Path

import fixtures
import instructions
import latency
import report
import results
from check import DEFAULT_THRESHOLDS
from check import report as check_report
from broker import Broker
from build import build_responder, checkout_revision
from runs import drain, replay
from variants import VARIANTS, Setup, at_revision, responder_lacks


def parse_arguments():
    parser = argparse.ArgumentParser(prog="scripts/bench", description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000, help="events per run (default 100000)")
    parser.add_argument("--prefetch", default="50,200,1000", help="prefetch values (default 50,200,1000)")
    parser.add_argument("--mix", default=",".join(fixtures.MIXES),
                        help="fixtures, of: " + ", ".join(fixtures.MIXES) + " (default both)")
    parser.add_argument("--only", default=",".join([v.name for v in VARIANTS] + ["replay"]),
                        help="what to measure, of: " + ", ".join([v.name for v in VARIANTS] + ["replay"]))
    parser.add_argument("--soak", action="store_true", help="also run the soak through responder run")
    parser.add_argument("--latency", action="store_true",
                        help="also measure delivery-to-ack latency at 50%% and 90%% of responder run's rate "
                             "(redgreen mix, prefetch 200; needs that row)")
    parser.add_argument("--soak-events", type=int, default=1_000_000, help="events in the soak (default 1000000)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="runs per variant and prefetch; the median by events/s is reported (default 1)")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 5000 events, soak of 20000")
    parser.add_argument("--url", default=os.environ.get("BENCH_AMQP_URL"), help="broker URL (scripts/bench sets it)")
    parser.add_argument("--repo", type=Path, default=Path(__file__).resolve().parents[2],
                        help="the checkout to benchmark (default: the one this file is in)")
    parser.add_argument("--build", type=Path, help="the benchmark build folder (default REPO/.build-bench)")
    parser.add_argument("--results", type=Path, help="where results files go (default REPO/Benchmarks/results)")
    parser.add_argument("--baseline", metavar="REV",
                        help="also run every responder row on REV's release build (a git worktree under "
                             ".build-bench/), in turns with this checkout's, to compare the two in one run")
    parser.add_argument("--check", action="store_true",
                        help="compare the run with the thresholds and exit non-zero on a regression")
    parser.add_argument("--thresholds", type=Path, default=DEFAULT_THRESHOLDS,
                        help="the thresholds --check uses (default Benchmarks/thresholds.json)")
    parser.add_argument("--broker-ctl", default=None, help="command prefix for rabbitmqctl (default scripts/broker ctl)")
    arguments = parser.parse_args()
    if arguments.quick:
        arguments.events, arguments.soak_events = 5_000, 20_000
    arguments.prefetch = [int(p) for p in arguments.prefetch.split(",")]
    arguments.only = arguments.only.split(",")
    arguments.mix = arguments.mix.split(",")
    if unknown := set(arguments.mix) - set(fixtures.MIXES):
        parser.error(f"unknown in --mix: {', '.join(sorted(unknown))}")
    known = {v.name for v in VARIANTS} | {"replay"}
    if unknown := set(arguments.only) - known:
        parser.error(f"unknown in --only: {', '.join(sorted(unknown))}")
    if not arguments.url:
        parser.error("no broker URL: run scripts/bench, or pass --url")
    if arguments.check and not arguments.thresholds.exists():
        parser.error(f"--check: no thresholds file at {arguments.thresholds}")
    arguments.build = arguments.build or arguments.repo / ".build-bench"
    arguments.results = arguments.results or arguments.repo / "Benchmarks" / "results"
    arguments.broker_ctl = arguments.broker_ctl.split() if arguments.broker_ctl else [
        str(arguments.repo / "scripts" / "broker"), "ctl"]
    return arguments


def machine_facts(broker):
    with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
        model = next((line.split(":", 1)[1].strip() for line in cpuinfo if line.startswith("model name")), "unknown")
    with open("/proc/meminfo", encoding="ascii") as meminfo:
        memory_kib = int(meminfo.readline().split()[1])
    librabbitmq = subprocess.run(["pkg-config", "--modversion", "librabbitmq"], capture_output=True, text=True)
    return {"nproc": len(os.sched_getaffinity(0)), "cpu_model": model,
            "memory_gib": round(memory_kib / 1024 / 1024, 1), "kernel": platform.release(),
            **broker.versions(), "librabbitmq": librabbitmq.stdout.strip(),
            "python": platform.python_version(), "aio_pika": version("aio-pika"), **instructions.counted_under()}


async def main():
    arguments = parse_arguments()
    started = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H-%M-%SZ")
    log_dir = arguments.repo / "bench-results" / f"logs-{started}"
    log_dir.mkdir(parents=True)
    scratch = arguments.build / "scratch"
    setup = Setup(repo=arguments.repo, build=arguments.build, url=arguments.url, events=arguments.events)
    selected = [v for v in VARIANTS if v.name in arguments.only]
    if "replay" in arguments.only:
        instructions.require()
    if any(v.name.startswith("responder") for v in selected) or "replay" in arguments.only or arguments.soak:
        build_responder(arguments.repo, log_dir)
    baseline = None
    if arguments.baseline:
        checkout, commit = checkout_revision(arguments.repo, arguments.baseline, arguments.build)
        build_responder(checkout, log_dir, log_name=f"swift-build-{commit}.log")
        baseline = {"revision": arguments.baseline, "commit": commit}
        # Each responder row's twin at the baseline runs right after it, so both meet the same load.
        selected = [twin for v in selected
                    for twin in ([v, at_revision(v, checkout, commit)] if v.name.startswith("responder") else [v])]

    mixes = {}
    for mix in arguments.mix:
        fixture = fixtures.fixture(setup.events, arguments.build / "fixtures", mix)
        answers, updates = fixtures.answers(fixture)
        mixes[mix] = {"fixture": fixture, "setup": dataclasses.replace(setup, answers=answers), "updates": updates}
    broker = Broker(arguments.url, arguments.broker_ctl)
    await broker.open()
    broker_pid = broker.pid()
    document = {"started": started, "commit": results.commit(arguments.repo),
                "command": results.command(sys.argv[1:]), "baseline": baseline, "events": setup.events,
                "mixes": {mix: {"expected_updates": entry["updates"]} for mix, entry in mixes.items()},
                "prefetch": arguments.prefetch, "repeat": arguments.repeat, "machine": machine_facts(broker),
                "variants": {v.name: v.summary for v in selected}, "runs": [], "replay": [], "latency": [],
                "skipped": []}

    runnable = []
    for variant in selected:
        if why := variant.unavailable(setup):
            print(f"bench: skipping {variant.name}: {why}", file=sys.stderr)
            document["skipped"].append(f"{variant.name}: {why}")
        else:
            runnable.append(variant)
    # Variants take turns within each mix, prefetch and round, so load from elsewhere on a shared machine falls
    # on all of them alike rather than on whichever ran while it lasted.
    attempts = {(mix, variant.name, prefetch): []
                for mix in mixes for variant in runnable for prefetch in arguments.prefetch}
    for attempt in range(1, arguments.repeat + 1):
        for mix, entry in mixes.items():
            for prefetch in arguments.prefetch:
                for variant in runnable:
                    label = f"{variant.name} {mix} prefetch {prefetch}" + (
                        f" run {attempt}" if arguments.repeat > 1 else "")
                    run = await drain(broker, broker_pid, entry["setup"], variant, prefetch, entry["fixture"],
                                      entry["updates"], log_dir, scratch / f"{variant.name}-{mix}-p{prefetch}",
                                      label=label)
                    attempts[(mix, variant.name, prefetch)].append({**run, "mix": mix})
    document["runs"] = [report.median_run(runs) for runs in attempts.values()]

    if "replay" in arguments.only:
        if why := responder_lacks(setup, "replay"):
            print(f"bench: skipping replay: {why}", file=sys.stderr)
            document["skipped"].append(f"replay: {why}")
        else:
            callgrind = instructions.Callgrind(setup.responder, scratch / "callgrind")
            for mix, entry in mixes.items():
                for store in ("memory", "sqlite"):
                    result = await replay(entry["setup"], entry["fixture"], store,
                                          scratch / f"replay-{mix}-{store}", log_dir, callgrind)
                    document["replay"].append({**result, "mix": mix})

    if arguments.latency:
        responder = next(v for v in VARIANTS if v.name == "responder")
        measured = next((run for run in document["runs"] if run["status"] == "ok" and run["mix"] == "redgreen"
                         and run["variant"] == "responder" and run["prefetch"] == report.TARGET_PREFETCH), None)
        if measured is None or "redgreen" not in mixes:
            why = f"needs the responder row on the redgreen mix at prefetch {report.TARGET_PREFETCH} of this run"
            print(f"bench: skipping latency: {why}", file=sys.stderr)
            document["skipped"].append(f"latency: {why}")
        else:
            entry = mixes["redgreen"]
            for load in report.LATENCY_LOADS:
                label = f"latency {load:.0%} load"
                result = await latency.under_load(
                    broker, entry["setup"], responder, report.TARGET_PREFETCH, entry["fixture"], entry["updates"],
                    measured["events_per_s"] * load, log_dir, scratch / f"latency-{load}", label)
                document["latency"].append({**result, "load": load, "max_events_per_s": measured["events_per_s"]})

    if arguments.soak:
        responder = next(v for v in VARIANTS if v.name == "responder")
        soak_setup = dataclasses.replace(setup, events=arguments.soak_events)
        if why := responder.unavailable(soak_setup):
            print(f"bench: skipping the soak: {why}", file=sys.stderr)
            document["skipped"].append(f"soak: {why}")
        else:
            soak_fixture = fixtures.fixture(soak_setup.events, arguments.build / "fixtures")
            _, soak_updates = fixtures.answers(soak_fixture)
            prefetch = report.TARGET_PREFETCH
            soak = await drain(broker, broker_pid, soak_setup, responder, prefetch, soak_fixture, soak_updates,
                               log_dir, scratch / "soak", sample_every=1.0, label=f"soak prefetch {prefetch}")
            soak["rss"] = report.soak_summary(soak.get("rss_samples", []), soak_setup.events)
            document["soak"] = soak
    await broker.close()

    report.add_ratios(document["runs"])
    document["targets"] = report.targets(document)
    text = report.markdown(document)
    written = results.write(arguments.results, document, text)
    print(text)
    print(f"bench: wrote {written} and .md", file=sys.stderr)
    status = 0 if all(run["status"] == "ok" for run in document["runs"] + document["replay"]) else 1
    if arguments.check:
        status = max(status, check_report(document, json.loads(arguments.thresholds.read_text()), out=sys.stderr))
    return status


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
