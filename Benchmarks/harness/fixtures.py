"""The input fixtures: generated once per size by make_events.py, with the number of updates each must yield."""
import json
import subprocess
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BENCHMARKS / "peer"))

from redgreen import RedGreen  # noqa: E402  (the reference logic, shared with the peer)


def fixture(events, directory):
    """The fixture of `events` events, generated on first use (the generator is deterministic)."""
    Path(directory).mkdir(parents=True, exist_ok=True)
    path = Path(directory) / f"events-{events}.jsonl"
    if not path.exists():
        print(f"bench: generating {events} events into {path}", file=sys.stderr)
        partial = path.with_suffix(".partial")
        with open(partial, "wb") as out:
            subprocess.run([sys.executable, str(BENCHMARKS / "make_events.py"), str(events)], stdout=out, check=True)
        partial.rename(path)
    return path


def by_request(path):
    """The fixture at `path` with each line's routing key set to its notification's request identifier, as ordered
    mode's producers publish (the consistent-hash exchange hashes it); generated beside it on first use."""
    ordered = Path(str(path).replace(".jsonl", "-by-request.jsonl"))
    if not ordered.exists():
        partial = ordered.with_suffix(".partial")
        with open(path, encoding="utf-8") as lines, open(partial, "w", encoding="utf-8") as out:
            for line in lines:
                delivery = json.loads(line)
                delivery["routingKey"] = delivery["body"]["data"]["notification"]["request"]["identifier"]
                out.write(json.dumps(delivery, separators=(",", ":")) + "\n")
        partial.rename(ordered)
    return ordered


def expected_updates(path):
    """How many action-set updates the RedGreen logic publishes for the fixture at `path` (cached beside it)."""
    cache = Path(str(path) + ".updates")
    if cache.exists() and cache.stat().st_mtime >= Path(path).stat().st_mtime:
        return int(cache.read_text())
    redgreen = RedGreen()
    with open(path, encoding="utf-8") as lines:
        count = sum(1 for line in lines if redgreen.respond(json.loads(line)["body"]) is not None)
    cache.write_text(str(count))
    return count
