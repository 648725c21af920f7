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
