"""The PostgreSQL server's own counters around a run of the responder-postgres variant: transactions in the
`responder` database (each statement of the store is one transaction, so one round trip from the worker), WAL bytes
written, and the server's CPU, from its processes."""
import os
import subprocess
from pathlib import Path

from process import CLOCK_TICKS

REPO = Path(__file__).resolve().parents[2]


def _psql(sql):
    run = subprocess.run([str(REPO / "scripts" / "postgres"), "psql", "-Atc", sql], capture_output=True, text=True,
                         check=True)
    return run.stdout.strip()


def _server_cpu_seconds():
    """CPU seconds of the postmaster, of the backends that ended (its children's time), and of those running."""
    base = Path(os.environ.get("POSTGRES_DIR") or f"{os.environ.get('TMPDIR', '/tmp')}/responder-postgres-"
                f"{os.environ['POSTGRES_PORT']}")
    postmaster = (base / "data" / "postmaster.pid").read_text().split()[0]
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if entry == postmaster:
            total += sum(int(value) for value in fields[11:15])
        elif fields[1] == postmaster:
            total += int(fields[11]) + int(fields[12])
    return total / CLOCK_TICKS


def counters():
    """The counters now: WAL position in bytes, transactions in the `responder` database, server CPU seconds."""
    wal, transactions = _psql(
        "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint, "
        "(SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = 'responder')").split("|")
    return {"wal_bytes": int(wal), "transactions": int(transactions), "cpu_s": _server_cpu_seconds()}


def per_event(before, after, events):
    """What the run cost the server per event; the two psql calls' own transactions are taken off."""
    return {
        "db_transactions_per_event": round((after["transactions"] - before["transactions"] - 2) / events, 3),
        "db_wal_bytes_per_event": round((after["wal_bytes"] - before["wal_bytes"]) / events, 1),
        "db_cpu_us_per_event": round((after["cpu_s"] - before["cpu_s"]) * 1e6 / events, 2),
    }
