"""The clients the benchmark compares. Adding one is adding an entry to VARIANTS."""
import dataclasses
import os
import subprocess
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

import database
from broker import INPUT_QUEUE_ARGUMENTS
from build import RELEASE_SCRATCH


# Where the image's release build goes (scripts/test builds it there too, with the Dockerfile's command).
@dataclass(frozen=True)
class Setup:
    """What the variants' commands need to know about this checkout and this run."""
    repo: Path
    build: Path       # the benchmark's own build folder (C programs, Python venv)
    url: str          # the broker's AMQP URL
    events: int
    answers: Optional[Path] = None  # the fixture's answers file (fixtures.answers): what the limit publishes

    @property
    def python(self):
        return str(self.build / "venv" / "bin" / "python")

    @property
    def responder(self):
        return self.repo / RELEASE_SCRATCH / "release" / "responder"


@dataclass(frozen=True)
class Variant:
    name: str
    summary: str
    # The command for one run at a prefetch, given a fresh scratch folder for that run.
    command: Callable[[Setup, int, Path], list]
    env: Callable[[Setup], dict]
    # True: exits by itself after `events`; False: runs until the harness sees the queue drained and sends SIGTERM.
    exits_when_done: bool
    # None when the variant can run here, else why it cannot.
    unavailable: Callable[[Setup], Optional[str]] = lambda setup: None
    input_queue_arguments: dict = field(default_factory=lambda: dict(INPUT_QUEUE_ARGUMENTS))
    # The counters of a database server the variant uses (database.counters), read before and after each run.
    server_counters: Optional[Callable[[], dict]] = None
    # Ordered mode's shard count (0: the unordered input queue); the fixture then goes by request identifier.
    shards: int = 0


ORDERED_SHARDS = 4


def metrics_port():
    """The (first) metrics port of this bench's clients, beside its broker's port: benches on brokers of their own then
    never share one, as they did on the worker's default (9090), where the second worker could not serve."""
    return int(os.environ.get("BROKER_PORT", "5699")) + 10000


def fleet(setup, workers, argv):
    """`argv` as `workers` processes (Benchmarks/harness/fleet.sh), each with a metrics port of its own, measured as
    one client."""
    return [str(setup.repo / "Benchmarks" / "harness" / "fleet.sh"), str(workers), str(metrics_port()), *argv]


def responder_lacks(setup, subcommand):
    """Why `responder SUBCOMMAND` cannot run from this checkout, or None when it can."""
    if not setup.responder.exists():
        return f"{setup.responder} is not built (this checkout has no responder executable yet)"
    probe = subprocess.run([str(setup.responder), subcommand, "--help"], capture_output=True)
    if probe.returncode != 0:
        return f"{setup.responder} has no `{subcommand}` subcommand yet"
    return None


VARIANTS = [
    Variant(
        name="limit",
        summary="C on librabbitmq: consume, a confirmed persistent publish for exactly the inputs RedGreen answers "
                "(the reference logic's update body), acked as the worker acks (the settled prefix with ack(multiple)); "
                "no decoding: the same broker work as the responder",
        command=lambda setup, prefetch, scratch: [
            str(setup.build / "limit"), "--events", str(setup.events), "--prefetch", str(prefetch),
            "--answers", str(setup.answers)],
        env=lambda setup: {"AMQP_URL": setup.url},
        exits_when_done=True,
    ),
    Variant(
        name="peer",
        summary="Python aio-pika: json.loads, RedGreen in a dict, confirmed publish, then ack",
        command=lambda setup, prefetch, scratch: [
            setup.python, str(setup.repo / "Benchmarks" / "peer" / "peer.py"),
            "--events", str(setup.events), "--prefetch", str(prefetch)],
        env=lambda setup: {"AMQP_URL": setup.url},
        exits_when_done=True,
    ),
    Variant(
        name="responder",
        summary="responder run: RedGreen handlers, SQLite state store",
        command=lambda setup, prefetch, scratch: [
            str(setup.responder), "run", "--state", str(scratch / "state.sqlite"), "--prefetch", str(prefetch)],
        env=lambda setup: {"RESPONDER_AMQP_URL": setup.url},
        exits_when_done=False,
        unavailable=lambda setup: responder_lacks(setup, "run"),
    ),
    Variant(
        name="responder-postgres",
        summary="responder run with the PostgreSQL state store (scripts/postgres on this machine), a fresh schema per run",
        # `run` only checks the schema and `migrate` never reads the environment, so the fresh schema is migrated
        # first through a file of the URL (0600), then the shell becomes the worker (exec keeps the measured pid).
        command=lambda setup, prefetch, scratch: [
            "/bin/sh", "-c",
            'umask 077 && printf "%s" "$RESPONDER_STATE" >"$1/state-url" && "$2" migrate --state-file "$1/state-url" '
            '>/dev/null && exec "$2" run --prefetch "$3"',
            "migrate-then-run", str(scratch), str(setup.responder), str(prefetch)],
        # The URL holds a password: it goes through the environment, never the command line.
        env=lambda setup: {
            "RESPONDER_AMQP_URL": setup.url,
            "RESPONDER_STATE": f"{os.environ['BENCH_POSTGRES_URL']}?sslmode=disable&schema=bench_{uuid.uuid4().hex[:12]}",
        },
        exits_when_done=False,
        unavailable=lambda setup: responder_lacks(setup, "migrate")
        or (None if os.environ.get("BENCH_POSTGRES_URL") else "BENCH_POSTGRES_URL is not set (scripts/bench sets it)"),
        server_counters=database.counters,
    ),
    Variant(
        name="responder-traced",
        summary="responder run as the responder row, with OpenTelemetry tracing on (OTLP/HTTP to a local collector that "
                "discards, Benchmarks/traced/run): what the spans cost",
        command=lambda setup, prefetch, scratch: [
            str(setup.repo / "Benchmarks" / "traced" / "run"),
            str(setup.responder), "run", "--state", str(scratch / "state.sqlite"), "--prefetch", str(prefetch)],
        env=lambda setup: {"RESPONDER_AMQP_URL": setup.url},
        exits_when_done=False,
        unavailable=lambda setup: responder_lacks(setup, "run"),
    ),
    Variant(
        name="responder-memory",
        summary="responder run with the in-memory state store: the same without SQLite, to show what the store costs",
        command=lambda setup, prefetch, scratch: [
            str(setup.responder), "run", "--state", ":memory:", "--prefetch", str(prefetch)],
        env=lambda setup: {"RESPONDER_AMQP_URL": setup.url},
        exits_when_done=False,
        unavailable=lambda setup: responder_lacks(setup, "run"),
    ),
    Variant(
        name="responder-ordered",
        summary=f"responder run --shards {ORDERED_SHARDS}: ordered mode, one worker (prefetch on each shard's channel)",
        command=lambda setup, prefetch, scratch: [
            str(setup.responder), "run", "--state", str(scratch / "state.sqlite"), "--prefetch", str(prefetch),
            "--shards", str(ORDERED_SHARDS)],
        env=lambda setup: {"RESPONDER_AMQP_URL": setup.url},
        exits_when_done=False,
        unavailable=lambda setup: responder_lacks(setup, "run"),
        shards=ORDERED_SHARDS,
    ),
    Variant(
        name="responder-ordered-3",
        summary=f"three responder run --shards {ORDERED_SHARDS} on one SQLite file: one active consumer per shard",
        command=lambda setup, prefetch, scratch: fleet(setup, 3, [
            str(setup.responder), "run", "--state", str(scratch / "state.sqlite"), "--prefetch", str(prefetch),
            "--shards", str(ORDERED_SHARDS)]),
        env=lambda setup: {"RESPONDER_AMQP_URL": setup.url},
        exits_when_done=False,
        unavailable=lambda setup: responder_lacks(setup, "run"),
        shards=ORDERED_SHARDS,
    ),
]


def at_revision(variant, checkout, commit):
    """`variant` as run from another checkout of the project (`scripts/bench --baseline`): the same command, on that
    checkout's release build, in a row named VARIANT@COMMIT."""
    def there(setup):
        return dataclasses.replace(setup, repo=checkout)
    return dataclasses.replace(
        variant, name=f"{variant.name}@{commit}", summary=f"{variant.summary} (at {commit})",
        command=lambda setup, prefetch, scratch: variant.command(there(setup), prefetch, scratch),
        env=lambda setup: variant.env(there(setup)),
        unavailable=lambda setup: variant.unavailable(there(setup)))


def client_env(variant, setup):
    """The environment a client runs with: the harness's own, the bench's metrics port, and the variant's."""
    return {**os.environ, "RESPONDER_METRICS_PORT": str(metrics_port()), **variant.env(setup)}
