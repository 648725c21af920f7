"""The results file of a run: Benchmarks/results/DATE-COMMIT.{md,json}, committed so every run stays comparable
with the ones before it. Apart from the rest of the harness, which needs aio-pika, so the suite can run it with the
system's Python (BenchResultsTests)."""
import json
import shlex
import subprocess
from datetime import datetime


def commit(repo):
    """The checkout's short commit, with `-dirty` when it has uncommitted changes to tracked files: a result is only
    worth keeping for code someone can check out again."""
    head = subprocess.run(["git", "-C", str(repo), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    if head.returncode != 0:
        return "unknown"
    dirty = subprocess.run(["git", "-C", str(repo), "diff", "--quiet", "HEAD", "--"], capture_output=True)
    return head.stdout.strip() + ("-dirty" if dirty.returncode != 0 else "")


def command(argv):
    """The exact command that made the run, as a person would type it again."""
    return shlex.join(["scripts/bench", *argv])


def stem(folder, started, revision):
    """DATE-COMMIT, or DATE-TIME-COMMIT when a run of that commit on that day is already there: a file is never
    overwritten."""
    moment = datetime.strptime(started, "%Y-%m-%dT%H-%M-%SZ")
    name = f"{moment:%Y-%m-%d}-{revision}"
    if (folder / f"{name}.json").exists() or (folder / f"{name}.md").exists():
        name = f"{moment:%Y-%m-%d-%H%M%S}-{revision}"
    return name


def write(folder, document, text):
    """Writes the document as JSON and its report as markdown; returns the JSON file's path."""
    folder.mkdir(parents=True, exist_ok=True)
    name = stem(folder, document["started"], document["commit"])
    (folder / f"{name}.json").write_text(json.dumps(document, indent=2) + "\n")
    (folder / f"{name}.md").write_text(text)
    return folder / f"{name}.json"
