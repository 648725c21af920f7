#!/usr/bin/env python3
"""Compares a run's results with Benchmarks/thresholds.json and says which row missed, by how much.

    python3 Benchmarks/harness/check.py Benchmarks/results/DATE-COMMIT.json [--thresholds FILE]

`scripts/bench --check` does the same for the run it has just made. Thresholds are ratios to the limit measured in
the same run (which makes them hold on another machine) and client CPU per event (which does not: see notes()), and
replay's instructions per event under callgrind, which do not move with the machine's load (only with the code and
with what COUNTED_UNDER names) and so guard fast paths whose saving is smaller than one replay's CPU spread; a row
the thresholds name and the run did not measure, or measured as failed, is a miss too: a check that nothing was
compared with must not pass.
Needs no aio-pika, so the suite runs it with the system's Python (BenchResultsTests).
"""
import argparse
import json
import sys
from pathlib import Path

from instructions import COUNTED_UNDER

DEFAULT_THRESHOLDS = Path(__file__).resolve().parents[1] / "thresholds.json"
# The instruction bounds are set 3% over a count: twice that under one means savings elsewhere have loosened it.
LOOSE = 0.06
# Between runs of one day on one machine the every-update limit's client CPU per event moved by less than 10%
# (thresholds.json's limit_note); more than this means the µs bounds were set on a machine of another speed.
ANOTHER_MACHINE = 0.25


def _short(measured, bound, unit=""):
    return f"{bound - measured:.2f}{unit} short ({(bound - measured) / bound:.0%})"


def _over(measured, bound, unit=""):
    return f"{measured - bound:.2f}{unit} over ({(measured - bound) / bound:.0%})"


def _measured(run, name, found, how=""):
    """The run when it was measured and is ok; otherwise notes the miss in `found` and returns None."""
    if run is None:
        found.append(f"{name}: not measured in this run{how}")
    elif run["status"] != "ok":
        found.append(f"{name}: {run['status']}: {run.get('why')}")
    else:
        return run
    return None


def set_from(thresholds, name):
    """The thresholds that were set from the results file `name`: a row's bounds by its own `from`, else the file's;
    a replay row's instructions bound by its `instructions_from` (none when it was measured apart from a bench run,
    with instructions.py), so a row may keep only some of its bounds."""
    def origin(row, bound):
        if bound == "max_instructions_per_event":
            return row.get("instructions_from")
        return row.get("from", thresholds.get("from"))

    def kept(rows):
        for row in rows:
            row = {key: value for key, value in row.items()
                   if not key.startswith(("min_", "max_")) or origin(row, key) == name}
            if any(key.startswith(("min_", "max_")) for key in row):
                yield row
    return {**thresholds, **{kind: list(kept(thresholds.get(kind, []))) for kind in ("rows", "replay", "latency")}}


def misses(document, thresholds):
    """One line per threshold the run misses; empty when it meets them all."""
    found = []
    runs = {(run["mix"], run["variant"], run["prefetch"]): run for run in document.get("runs", [])}
    for row in thresholds.get("rows", []):
        prefetch = row.get("prefetch", thresholds.get("prefetch"))
        name = f"{row['mix']} {row['variant']} prefetch {prefetch}"
        if (run := _measured(runs.get((row["mix"], row["variant"], prefetch)), name, found)) is None:
            continue
        if (least := row.get("min_vs_limit")) is not None:
            ratio = run.get("events_per_s_vs_limit")
            if ratio is None:
                found.append(f"{name}: no limit row on this mix and prefetch to take the ratio to")
            elif ratio < least:
                found.append(f"{name}: {ratio:.3f} of the limit, threshold {least}: {_short(ratio, least)}")
        if (most := row.get("max_client_cpu_us_per_event")) is not None:
            cpu = run["client_cpu_us_per_event"]
            if cpu > most:
                found.append(f"{name}: {cpu} µs client CPU per event, threshold {most}: {_over(cpu, most, ' µs')}")
    replays = {(run["mix"], run["store"]): run for run in document.get("replay", [])}
    for row in thresholds.get("replay", []):
        name = f"{row['mix']} replay {row['store']}"
        if (run := _measured(replays.get((row["mix"], row["store"])), name, found)) is None:
            continue
        if (most := row.get("max_client_cpu_us_per_event")) is not None and run["client_cpu_us_per_event"] > most:
            cpu = run["client_cpu_us_per_event"]
            found.append(f"{name}: {cpu} µs CPU per event, threshold {most}: {_over(cpu, most, ' µs')}")
        if (most := row.get("max_instructions_per_event")) is not None:
            if (counted := run.get("instructions_per_event")) is None:
                found.append(f"{name}: no instructions per event in this run")
            elif counted > most:
                found.append(f"{name}: {counted:,} instructions per event, threshold {most:,}: "
                             f"{counted - most:,} over ({(counted - most) / most:.1%})")
    latency = {run["load"]: run for run in document.get("latency", [])}
    for row in thresholds.get("latency", []):
        name = f"delivery-to-ack at {row['load']:.0%} load"
        if (run := _measured(latency.get(row["load"]), name, found, " (scripts/bench --latency)")) is None:
            continue
        for quantile in ("p50_ms", "p99_ms", "p99.9_ms"):
            if (most := row.get(f"max_{quantile}")) is not None and run[quantile] > most:
                found.append(f"{name}: {quantile[:-3]} {run[quantile]} ms, threshold {most} ms: "
                             f"{_over(run[quantile], most, ' ms')}")
    return found


def notes(document, thresholds, results=DEFAULT_THRESHOLDS.parent / "results"):
    """What to know beside the verdict, one line each, never a miss: a limit whose client CPU per event is more than
    ANOTHER_MACHINE away from the one the µs bounds were set beside (`limit_client_cpu_us_per_event`: the machine's
    speed moved, and absolute bounds with it), a replay count more than LOOSE under its bound (the bounds are
    absolute, so a saving elsewhere loosens every guard: count the fast paths again and tighten), and a bound counted
    under other facts of COUNTED_UNDER than this run (its `instructions_from` file in `results`)."""
    found = []
    limits = {run["mix"]: run for run in document.get("runs", [])
              if run.get("variant") == "limit" and run.get("prefetch") == thresholds.get("prefetch")
              and run.get("status") == "ok"}
    for mix, then in sorted(thresholds.get("limit_client_cpu_us_per_event", {}).items()):
        if (run := limits.get(mix)) is None or abs(run["client_cpu_us_per_event"] - then) <= then * ANOTHER_MACHINE:
            continue
        found.append(f"{mix}: the limit spent {run['client_cpu_us_per_event']} µs client CPU per event in this run and "
                     f"{then} where the µs bounds were set: the machine's speed differs, so those bounds compare "
                     f"days, not code; compare with a --baseline run and set them again from it")
    replays = {(run["mix"], run["store"]): run for run in document.get("replay", []) if run.get("status") == "ok"}
    for row in thresholds.get("replay", []):
        name = f"{row['mix']} replay {row['store']}"
        run, most = replays.get((row["mix"], row["store"])), row.get("max_instructions_per_event")
        if run is None or most is None or (counted := run.get("instructions_per_event")) is None:
            continue
        if counted < most * (1 - LOOSE):
            found.append(f"{name}: {counted:,} instructions per event, {(most - counted) / most:.1%} under its bound "
                         f"{most:,}: count its guards without each fast path again and tighten the bound")
        source = results / row["instructions_from"] if row.get("instructions_from") else None
        if source is None or not source.exists():
            continue
        theirs, ours = json.loads(source.read_text()).get("machine", {}), document.get("machine", {})
        for fact in COUNTED_UNDER:
            if fact in theirs and fact in ours and theirs[fact] != ours[fact]:
                found.append(f"{name}: its bound was counted under {fact} {theirs[fact]!r}, this run under "
                             f"{ours[fact]!r}: a count moves with it")
    return found


def report(document, thresholds, out=sys.stdout, results=DEFAULT_THRESHOLDS.parent / "results"):
    """Prints the verdict and the notes (`results`: where the thresholds' results files are); returns the exit
    status (1 on any miss)."""
    found = misses(document, thresholds)
    for line in found:
        print(f"bench: regression: {line}", file=out)
    for line in notes(document, thresholds, results):
        print(f"bench: note: {line}", file=out)
    if not found:
        count = sum(len(thresholds.get(kind, [])) for kind in ("rows", "replay", "latency"))
        print(f"bench: the run meets all {count} thresholds", file=out)
    return 1 if found else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path, help="a results file (Benchmarks/results/*.json)")
    parser.add_argument("--thresholds", type=Path, default=DEFAULT_THRESHOLDS,
                        help="the thresholds (default Benchmarks/thresholds.json)")
    parser.add_argument("--set-from", action="store_true",
                        help="check only the thresholds set from this results file (their `from`, and a replay "
                             "row's `instructions_from` for its instructions bound)")
    arguments = parser.parse_args()
    thresholds = json.loads(arguments.thresholds.read_text())
    if arguments.set_from:
        thresholds = set_from(thresholds, arguments.results.name)
    return report(json.loads(arguments.results.read_text()), thresholds,
                  results=arguments.thresholds.resolve().parent / "results")


if __name__ == "__main__":
    sys.exit(main())
