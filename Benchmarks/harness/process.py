"""One measured client process: CPU exactly from wait4's rusage, peak RSS from the kernel's VmHWM.

The rusage of a child is exact for its CPU time (all its threads, user and system). Its ru_maxrss is not used for
memory: on Linux a child's maxrss starts at its parent's high-water mark when it is spawned (vfork, then exec), so
it would report this harness's size. VmHWM belongs to the client's own address space, is monotonic, and is read
every poll, so the last reading before exit is its peak.
"""
import os
import signal
import subprocess
import time

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def status_kib(pid, field):
    """A `field:  N kB` line of /proc/PID/status, in KiB, or None once the process is gone."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except (FileNotFoundError, ProcessLookupError):
        return None
    return None


def cpu_seconds(pid):
    """User plus system CPU seconds of a running process that is not our child (the broker)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def machine_busy_seconds():
    """CPU seconds all cores spent busy (neither idle nor waiting for I/O) since boot."""
    with open("/proc/stat", encoding="ascii") as stat:
        values = [int(value) for value in stat.readline().split()[1:]]
    idle, iowait = values[3], values[4]
    return (sum(values[:8]) - idle - iowait) / CLOCK_TICKS


def own_cpu_seconds():
    """CPU seconds this harness itself has used, to keep it out of the 'other load' figure."""
    times = os.times()
    return times.user + times.system


class Client:
    """A started client process, polled by the harness until it exits."""

    def __init__(self, argv, env, log_path):
        self.log = open(log_path, "wb")
        # Popen returns once exec has succeeded, so from here /proc/PID is the client, not a copy of the harness.
        self.process = subprocess.Popen(argv, env=env, stdout=self.log, stderr=subprocess.STDOUT,
                                        stdin=subprocess.DEVNULL)
        self.started = time.monotonic()
        self.pid = self.process.pid
        self.peak_rss_kib = 0
        self.exited = None
        self.exit_code = None
        self.usage = None

    def poll(self):
        """True once the client has exited (its rusage is then in `usage`); else records its VmHWM."""
        pid, status, usage = os.wait4(self.pid, os.WNOHANG)
        if pid == 0:
            self.peak_rss_kib = max(self.peak_rss_kib, status_kib(self.pid, "VmHWM") or 0)
            return False
        self.exited = time.monotonic()
        self.exit_code = os.waitstatus_to_exitcode(status)
        self.process.returncode = self.exit_code
        self.usage = usage
        self.log.close()
        return True

    def rss_kib(self):
        return status_kib(self.pid, "VmRSS")

    def terminate(self):
        self.process.send_signal(signal.SIGTERM)

    def kill(self):
        self.process.send_signal(signal.SIGKILL)

    @property
    def cpu_user(self):
        return self.usage.ru_utime

    @property
    def cpu_system(self):
        return self.usage.ru_stime
