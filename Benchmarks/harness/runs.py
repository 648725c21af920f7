"""Measured runs: a client draining the pre-filled input queue, and `responder replay` over a fixture."""
import asyncio
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import Optional

from broker import OUTPUT_QUEUE
import database
import fixtures
import instructions
from process import Client, cpu_seconds, machine_busy_seconds, own_cpu_seconds
from variants import client_env

POLL_SECONDS = 0.02
SETTLE_SECONDS = 2.0      # after filling: let the broker finish writing before the clock starts
REQUEUE_SECONDS = 1.0     # after a client exits: let the broker requeue anything it left unacked
GRACE_SECONDS = 60.0      # a SIGTERMed client must be gone by then
STALL_SECONDS = 10.0      # input queue empty, outputs short of the expected count and not growing: give up


def fill(setup, fixture, log_dir):
    """Publishes the fixture to the input exchange with the C filler (confirmed, not measured)."""
    with open(log_dir / "fill.log", "ab") as log:
        subprocess.run([str(setup.build / "fill"), str(fixture)], env={**os.environ, "AMQP_URL": setup.url},
                       stdout=log, stderr=subprocess.STDOUT, check=True)


def fresh(folder):
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder


@dataclass
class Watched:
    """What the harness saw while a client ran."""
    first_taken: Optional[float] = None   # when the input queue first had fewer than N ready
    done: Optional[float] = None          # when the work was seen finished (drain-detected variants)
    failure: Optional[str] = None
    rss_samples: list = field(default_factory=list)


async def watch(client, broker, variant, events, expected_outputs, sample_every):
    """Polls the client and the queues until the client exits. A variant that does not exit by itself is sent
    SIGTERM once the input queue has nothing ready and every expected output is in the output queue, or once the
    outputs stop growing short of that (a failed run: it published fewer updates than the RedGreen logic yields)."""
    seen = Watched()
    next_sample = client.started
    deadline = client.started + 60 + events / 200
    terminated, killed = None, False
    last_outputs, last_change = None, client.started
    while not client.poll():
        now = time.monotonic()
        ready = await broker.ready_inputs(variant.shards)
        if seen.first_taken is None and ready < events:
            seen.first_taken = now
        if not variant.exits_when_done and terminated is None and ready == 0:
            outputs = await broker.ready(OUTPUT_QUEUE)
            if outputs != last_outputs:
                last_outputs, last_change = outputs, now
            if outputs >= expected_outputs:
                seen.done = terminated = now
                client.terminate()
            elif now > last_change + STALL_SECONDS:
                seen.failure = f"stalled at {outputs} of {expected_outputs} expected outputs"
                terminated = now
                client.terminate()
        if sample_every and now >= next_sample:
            seen.rss_samples.append({"t": round(now - client.started, 2), "rss_kib": client.rss_kib() or 0,
                                     "taken": events - ready})
            next_sample += sample_every
        if not killed and (now > deadline or (terminated and now > terminated + GRACE_SECONDS)):
            seen.failure = seen.failure or ("did not exit after SIGTERM" if terminated
                                            else f"not done after {deadline - client.started:.0f} s")
            client.kill()
            killed = True
        await asyncio.sleep(POLL_SECONDS)
    return seen


async def drain(broker, broker_pid, setup, variant, prefetch, fixture, expected_outputs, log_dir, scratch,
                sample_every=None, label=None):
    """One measured run: fill the input queue with `setup.events` events, run the client until it has processed
    them all, and check that every input was acked and exactly the expected outputs were published."""
    label = label or f"{variant.name} prefetch {prefetch}"
    result = {"variant": variant.name, "prefetch": prefetch, "events": setup.events,
              "expected_outputs": expected_outputs}
    await broker.reset(variant.input_queue_arguments, variant.shards)
    fill(setup, fixtures.by_request(fixture) if variant.shards else fixture, log_dir)
    filled = await broker.ready_inputs(variant.shards)
    if filled != setup.events:
        return {**result, "status": "failed", "why": f"the input queue holds {filled} messages after filling"}
    await asyncio.sleep(SETTLE_SECONDS)

    log_path = log_dir / (label.replace(" prefetch ", "-p").replace(" run ", "-").replace(" ", "-") + ".log")
    server_before = variant.server_counters() if variant.server_counters else None
    broker_before, busy_before, own_before = cpu_seconds(broker_pid), machine_busy_seconds(), own_cpu_seconds()
    client = Client(variant.command(setup, prefetch, fresh(scratch)), client_env(variant, setup), log_path)
    seen = await watch(client, broker, variant, setup.events, expected_outputs, sample_every)
    broker_cpu = cpu_seconds(broker_pid) - broker_before
    busy = machine_busy_seconds() - busy_before - (own_cpu_seconds() - own_before)

    await asyncio.sleep(REQUEUE_SECONDS)
    left, outputs = await broker.ready_inputs(variant.shards), await broker.ready(OUTPUT_QUEUE)
    failure = seen.failure
    if failure is None and client.exit_code != 0:
        failure = f"exited with {client.exit_code}, see {log_path}"
    if failure is None and left != 0:
        failure = f"{left} inputs were not acked"
    if failure is None and outputs != expected_outputs:
        failure = f"{outputs} outputs published, {expected_outputs} expected"
    cpu = client.cpu_user + client.cpu_system
    wall = (seen.done or client.exited) - client.started
    lifetime = client.exited - client.started
    result.update(
        status="failed" if failure else "ok", why=failure, outputs=outputs,
        wall_s=round(wall, 3), exit_s=round(lifetime, 3),
        startup_s=round(seen.first_taken - client.started, 3) if seen.first_taken else None,
        events_per_s=round(setup.events / wall, 1),
        client_cpu_user_s=round(client.cpu_user, 3), client_cpu_system_s=round(client.cpu_system, 3),
        client_cpu_us_per_event=round(cpu * 1e6 / setup.events, 2),
        peak_rss_kib=client.peak_rss_kib,
        broker_cpu_us_per_event=round(broker_cpu * 1e6 / setup.events, 2),
        # Clock ticks are 10 ms, so an idle machine can come out a hair below zero.
        other_load_cores=max(0.0, round((busy - broker_cpu - cpu) / lifetime, 2)),
        log=str(log_path))
    if server_before:
        result.update(database.per_event(server_before, variant.server_counters(), setup.events))
        print(f"bench: {label}: the database per event: {result['db_transactions_per_event']} transactions "
              f"(round trips), {result['db_wal_bytes_per_event']} WAL bytes, {result['db_cpu_us_per_event']} us CPU",
              file=sys.stderr)
    if sample_every:
        result["rss_samples"] = seen.rss_samples
    state = (f"FAILED: {failure}" if failure else
             f"{result['events_per_s']:,.0f} events/s, {result['client_cpu_us_per_event']} us CPU/event")
    print(f"bench: {label}: {state}", file=sys.stderr)
    return result


async def replay(setup, fixture, store, scratch, log_dir, callgrind):
    """`responder replay` over the fixture with one store ("memory" or "sqlite"): events/s from its wall time, and
    the instructions per event `callgrind` (instructions.Callgrind) counts on the fixture's first lines."""
    state = ":memory:" if store == "memory" else str(fresh(scratch) / "replay.sqlite")
    log_path = log_dir / f"replay-{store}.log"
    client = Client([str(setup.responder), "replay", str(fixture), "--state", state, "--out", "/dev/null"],
                    dict(os.environ), log_path)
    deadline = client.started + 60 + setup.events / 1000
    while not client.poll():
        if time.monotonic() > deadline:
            client.kill()
        await asyncio.sleep(POLL_SECONDS)
    result = {"store": store, "events": setup.events}
    if client.exit_code != 0:
        return {**result, "status": "failed", "why": f"exited with {client.exit_code}, see {log_path}"}
    wall = client.exited - client.started
    cpu = client.cpu_user + client.cpu_system
    print(f"bench: replay {store}: {setup.events / wall:,.0f} events/s", file=sys.stderr)
    try:
        counted, lines, seconds = await asyncio.to_thread(callgrind.per_event, fixture, store, scratch / "callgrind")
    except instructions.MeasureFailed as failure:
        print(f"bench: replay {store}: no instructions per event: {failure}", file=sys.stderr)
        return {**result, "status": "failed", "why": f"no instructions per event: {failure}"}
    print(f"bench: replay {store}: {counted:,} instructions per event (callgrind, {seconds:.1f} s)", file=sys.stderr)
    return {**result, "status": "ok", "wall_s": round(wall, 3), "events_per_s": round(setup.events / wall, 1),
            "wall_us_per_event": round(wall * 1e6 / setup.events, 2),
            "client_cpu_us_per_event": round(cpu * 1e6 / setup.events, 2), "peak_rss_kib": client.peak_rss_kib,
            "instructions_per_event": counted, "instructions_lines": lines}
