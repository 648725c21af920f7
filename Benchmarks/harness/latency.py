"""Delivery-to-ack latency under a steady load: `responder run` fed by `responder publish --rate`, quantiles from
the worker's own `responder_end_to_end_duration_seconds` histogram, which times each input from the socket read of its
delivery (stamped by the AMQP client as it assembles the last frame) to its ack handed to the connection."""
import asyncio
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

from broker import INPUT_QUEUE, OUTPUT_QUEUE
from process import Client
from runs import POLL_SECONDS, fresh
from variants import client_env

HISTOGRAM = "responder_end_to_end_duration_seconds"
QUANTILES = (0.5, 0.99, 0.999)
READY_SECONDS = 30.0


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def scrape(port, path="/metrics"):
    """The body of GET path on the worker's observability port, or None while it does not answer 200."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=2) as response:
            return response.read().decode("utf-8") if response.status == 200 else None
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return None


def buckets(text):
    """The histogram's cumulative buckets [(upper bound, count)], summed over label sets, in bound order."""
    counts = {}
    for line in text.splitlines():
        if not line.startswith(HISTOGRAM + "_bucket{"):
            continue
        labels, value = line.rsplit(" ", 1)
        bound = labels.split('le="', 1)[1].split('"', 1)[0]
        upper = float("inf") if bound == "+Inf" else float(bound)
        counts[upper] = counts.get(upper, 0) + float(value)
    return sorted(counts.items())


def quantile(cumulative, q):
    """The q-quantile from cumulative buckets, interpolated linearly inside its bucket as Prometheus's
    histogram_quantile does; a quantile in the +Inf bucket reads as the largest finite bound."""
    total = cumulative[-1][1] if cumulative else 0
    if total == 0:
        return None
    rank = q * total
    lower, below = 0.0, 0.0
    for upper, count in cumulative:
        if count >= rank:
            if upper == float("inf"):
                return lower
            return lower + (upper - lower) * ((rank - below) / (count - below) if count > below else 1.0)
        lower, below = upper, count
    return lower


async def under_load(broker, setup, variant, prefetch, fixture, expected_outputs, rate, log_dir, scratch, label):
    """One latency run: an idle `responder run` at `prefetch`, then the fixture published at `rate` events/s;
    once every expected update is out, the worker's histogram gives the quantiles."""
    result = {"variant": variant.name, "prefetch": prefetch, "events": setup.events, "rate": round(rate, 1)}
    await broker.reset(variant.input_queue_arguments)
    port = free_port()
    log_path = log_dir / f"{label.replace(' ', '-')}.log"
    worker = Client(variant.command(setup, prefetch, fresh(scratch)),
                    {**client_env(variant, setup), "RESPONDER_METRICS_PORT": str(port)}, log_path)
    try:
        ready_by = time.monotonic() + READY_SECONDS
        while scrape(port, "/health/ready") is None:
            if worker.poll() or time.monotonic() > ready_by:
                return {**result, "status": "failed", "why": f"the worker did not get ready, see {log_path}"}
            await asyncio.sleep(POLL_SECONDS)
        with open(log_dir / f"{label.replace(' ', '-')}-publish.log", "wb") as publish_log:
            publish = await asyncio.create_subprocess_exec(
                str(setup.responder), "publish", str(fixture), "--rate", f"{rate:.1f}",
                env={**os.environ, "RESPONDER_AMQP_URL": setup.url}, stdout=publish_log, stderr=subprocess.STDOUT)
            if await publish.wait() != 0:
                return {**result, "status": "failed", "why": "responder publish failed"}
        done_by = time.monotonic() + 60
        while (await broker.ready(INPUT_QUEUE) > 0 or await broker.ready(OUTPUT_QUEUE) < expected_outputs):
            if worker.poll() or time.monotonic() > done_by:
                return {**result, "status": "failed", "why": f"the updates did not all arrive, see {log_path}"}
            await asyncio.sleep(POLL_SECONDS)
        # The last acks are recorded just after their updates are confirmed: wait until the histogram counts all.
        while True:
            cumulative = buckets(scrape(port) or "")
            if cumulative and cumulative[-1][1] >= setup.events:
                break
            if time.monotonic() > done_by:
                return {**result, "status": "failed", "why": "the histogram did not count every event"}
            await asyncio.sleep(POLL_SECONDS)
    finally:
        if worker.exited is None and not worker.poll():
            worker.terminate()
            while not worker.poll():
                await asyncio.sleep(POLL_SECONDS)
    figures = {f"p{q * 100:g}_ms": round(quantile(cumulative, q) * 1000, 2) for q in QUANTILES}
    print(f"bench: {label}: " + ", ".join(f"{name} {value}" for name, value in figures.items()), file=sys.stderr)
    return {**result, "status": "ok", "counted": int(cumulative[-1][1]), **figures}
