"""The input fixtures: generated once per size and mix by make_events.py, with the answers the RedGreen logic gives."""
import json
import subprocess
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BENCHMARKS / "peer"))

from redgreen import RedGreen  # noqa: E402  (the reference logic, shared with the peer)

MIXES = ("redgreen", "every-update")


def fixture(events, directory, mix="redgreen"):
    """The fixture of `events` events of `mix`, generated on first use (the generator is deterministic)."""
    Path(directory).mkdir(parents=True, exist_ok=True)
    path = Path(directory) / f"events-{mix}-{events}.jsonl"
    if not path.exists():
        print(f"bench: generating {events} {mix} events into {path}", file=sys.stderr)
        partial = path.with_suffix(".partial")
        with open(partial, "wb") as out:
            subprocess.run([sys.executable, str(BENCHMARKS / "make_events.py"), str(events), "--mix", mix],
                           stdout=out, check=True)
        partial.rename(path)
    return path


def answers(path):
    """The answers file of the fixture at `path` (written beside it on first use) and how many updates it holds.

    Line i is the update body the RedGreen logic publishes for input i, or empty when input i changes no buttons:
    what the limit publishes, so that it does the same broker work as the responder on this fixture."""
    answers_path = Path(str(path) + ".answers")
    count_path = Path(str(path) + ".updates")
    fresh = answers_path.exists() and answers_path.stat().st_mtime >= Path(path).stat().st_mtime
    if not fresh or not count_path.exists():
        redgreen = RedGreen()
        count = 0
        with open(path, encoding="utf-8") as lines, open(answers_path, "w", encoding="utf-8") as out:
            for line in lines:
                update = redgreen.respond(json.loads(line)["body"])
                if update is not None:
                    count += 1
                    out.write(json.dumps(update, ensure_ascii=False, separators=(",", ":")))
                out.write("\n")
        count_path.write_text(str(count))
    return answers_path, int(count_path.read_text())


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
