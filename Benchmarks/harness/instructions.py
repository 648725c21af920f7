#!/usr/bin/env python3
"""Instructions per event of `responder replay` under callgrind: the replay measure that does not move with the
machine's load, so a threshold on it can guard a fast path whose saving is smaller than one replay's CPU spread.

    python3 Benchmarks/harness/instructions.py RESPONDER FIXTURE [--store memory|sqlite]

prints the instructions per event of RESPONDER (a release build) replaying the first 5,000 lines of FIXTURE, net of
an empty fixture's start-up: how a fast path's guard is proved on a throwaway build without it
(Benchmarks/PROFILE.md). scripts/bench measures every replay row so. Apart from the rest of the harness, which needs
aio-pika, so the suite can run it with the system's Python (BenchBuildTests).
"""
import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LINES = 5_000

# valgrind 3.19 crashes at libdispatch's `sigsuspend` on some kernels (seen on 6.18); passing the mask from the stack
# avoids it and costs nothing per event, so the shim is always preloaded.
SIGSUSPEND_SHIM = """#include <signal.h>
#include <unistd.h>
#include <sys/syscall.h>
int sigsuspend(const sigset_t *m) { sigset_t c = *m; return (int)syscall(SYS_rt_sigsuspend, &c, 8); }
"""


class Callgrind:
    """The responder stripped of its debug information (valgrind 3.19 cannot read its DWARF 5; the symbol table
    stays) and the sigsuspend shim, both in `folder`."""

    # A replay of 5,000 lines takes about 10 s under callgrind here: a run that hangs fails its row instead of the
    # bench hanging.
    timeout = 600

    def __init__(self, responder, folder):
        require()
        folder.mkdir(parents=True, exist_ok=True)
        self.binary = folder / "responder-nodebug"
        self.shim = folder / "sigsuspend-shim.so"
        _run(["objcopy", "--strip-debug", str(responder), str(self.binary)], "objcopy --strip-debug")
        source = folder / "sigsuspend-shim.c"
        source.write_text(SIGSUSPEND_SHIM)
        _run(["gcc", "-O2", "-shared", "-fPIC", "-o", str(self.shim), str(source)], "building the sigsuspend shim")

    def instructions(self, fixture, state, scratch):
        """Instructions `responder replay FIXTURE --state STATE` executes (callgrind without cache simulation).
        Anything short of a count from this run's own output file raises MeasureFailed: a row fails, the bench
        goes on."""
        out = scratch / "callgrind.out"
        out.unlink(missing_ok=True)  # a count is only ever this run's
        try:
            ran = subprocess.run(
                ["valgrind", "--tool=callgrind", "--cache-sim=no", f"--callgrind-out-file={out}", str(self.binary),
                 "replay", str(fixture), "--state", state, "--out", "/dev/null"],
                env={**os.environ, "LD_PRELOAD": str(self.shim)}, capture_output=True, text=True,
                timeout=self.timeout)
        except subprocess.TimeoutExpired:
            raise MeasureFailed(f"callgrind did not finish within {self.timeout} s") from None
        if ran.returncode != 0:
            raise MeasureFailed(f"callgrind exited with {ran.returncode}: {ran.stderr.strip()[-400:]}")
        try:
            text = out.read_text()
        except OSError as error:
            raise MeasureFailed(f"callgrind exited with 0 but left no output: {error}") from None
        for line in text.splitlines():
            if line.startswith("totals:") or line.startswith("summary:"):
                try:
                    return int(line.split()[1])
                except (IndexError, ValueError):
                    raise MeasureFailed(f"an unreadable count in {out}: {line[:80]!r}") from None
        raise MeasureFailed(f"no totals in {out}")

    def per_event(self, fixture, store, scratch):
        """Instructions per event of replaying the first LINES lines of `fixture` with `store` ("memory" or
        "sqlite"), net of an empty fixture's start-up with the same store; the lines replayed (fewer in a shorter
        fixture); and the seconds it took."""
        started = time.monotonic()
        scratch.mkdir(parents=True, exist_ok=True)
        head = scratch / f"first-{LINES}.jsonl"
        with open(fixture, "rb") as source:
            lines = [line for _, line in zip(range(LINES), source)]
        if not lines:
            raise MeasureFailed(f"no lines to replay in {fixture}")
        head.write_bytes(b"".join(lines))
        empty = scratch / "empty.jsonl"
        empty.write_bytes(b"")
        counts = []
        for replayed in (empty, head):
            state = ":memory:"
            if store == "sqlite":
                state = str(scratch / "instructions.sqlite")
                for stale in scratch.glob("instructions.sqlite*"):
                    stale.unlink()
            counts.append(self.instructions(replayed, state, scratch))
        return round((counts[1] - counts[0]) / len(lines)), len(lines), time.monotonic() - started


# What moves a count besides the code: the compiler, valgrind, glibc (which picks its memcpy and strlen by CPU) and
# the machine. Each results file records them, and check.py says when a bound was counted under other ones.
COUNTED_UNDER = ("swift", "valgrind", "glibc", "arch", "cpu_model")


def counted_under():
    """This machine's facts of COUNTED_UNDER but the CPU model (bench.py's machine facts have it)."""
    def first_line(command):
        try:
            ran = subprocess.run(command, capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            return "unknown"
        said = (ran.stdout or ran.stderr).strip()
        return said.splitlines()[0] if ran.returncode == 0 and said else "unknown"
    return {"swift": first_line(["swift", "--version"]), "valgrind": first_line(["valgrind", "--version"]),
            "glibc": os.confstr("CS_GNU_LIBC_VERSION") or "unknown", "arch": platform.machine()}


class MeasureFailed(Exception):
    """callgrind did not give a count."""


def require():
    """Ends the bench when valgrind is missing: replay rows without their instructions would read as measured."""
    missing = [tool for tool in ("valgrind", "objcopy", "gcc") if shutil.which(tool) is None]
    if missing:
        sys.exit(f"bench: {', '.join(missing)} not found: replay's instructions per event need valgrind "
                 "(scripts/bench installs it)")


def _run(command, what):
    ran = subprocess.run(command, capture_output=True, text=True)
    if ran.returncode != 0:
        sys.exit(f"bench: {what} failed: {ran.stderr.strip()}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("responder", type=Path, help="a release build of responder")
    parser.add_argument("fixture", type=Path, help="a fixture file (its first 5,000 lines are replayed)")
    parser.add_argument("--store", choices=("memory", "sqlite"), default="memory")
    parser.add_argument("--scratch", type=Path, default=Path(tempfile.gettempdir()),
                        help="where the stripped binary and the replay's files go (default $TMPDIR)")
    arguments = parser.parse_args()
    folder = arguments.scratch / "instructions"
    try:
        count, lines, seconds = Callgrind(arguments.responder, folder).per_event(
            arguments.fixture, arguments.store, folder)
    except MeasureFailed as failure:
        sys.exit(f"bench: {failure}")
    print(f"{count} instructions per event over {lines} lines ({seconds:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
