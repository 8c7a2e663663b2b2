"""A CPU budget per process, for measuring how throughput grows with processes on a small machine.

On a machine with two cores, the program that makes the load (the table's load generator, the
vector environment's main process) and the database share the cores with the processes being
measured, so two processes cannot each get a whole core there, and "two processes against one"
measures the machine, not the software. With every measured process capped at the same fraction
of a core (``--cpu-quota CORES`` of ``bench_table_load.py`` and ``bench_env.py``), one process has
``CORES`` of CPU and two have twice that, whatever else runs, as long as the machine has that much
to give (all the capped processes plus the rest): then the ratio of their throughputs is the
software's own scaling, which on a machine with a core per process is what uncapped processes get.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


class CpuCap:
    """The same CPU budget for each of several processes, through Linux control groups.

    ``CORES`` of CPU for each process (the kernel's CFS bandwidth control: ``cpu.cfs_quota_us`` of
    cgroup v1, or ``cpu.max`` of cgroup v2); a process's threads, and the children it starts
    later, share its budget. Needs root."""

    PERIOD_US = 100_000

    def __init__(self, cores: float) -> None:
        if cores <= 0:
            raise SystemExit("--cpu-quota must be a positive number of cores, e.g. 0.45")
        v1, v2 = Path("/sys/fs/cgroup/cpu"), Path("/sys/fs/cgroup")
        controllers = v2 / "cgroup.controllers"
        if (v1 / "cpu.cfs_quota_us").exists():
            self.parent, self.v2 = v1, False
        elif controllers.exists() and "cpu" in controllers.read_text().split():
            self.parent, self.v2 = v2, True
        else:
            raise SystemExit("--cpu-quota needs Linux control groups with the cpu controller (/sys/fs/cgroup)")
        self.quota = int(cores * self.PERIOD_US)
        self.groups: list[Path] = []

    def cap(self, pid: int) -> None:
        """Move process ``pid`` (all its threads, and the children it starts later) into a group of its own."""
        group = self.parent / f"ludica-bench-{os.getpid()}-{pid}"
        try:
            group.mkdir()
            if self.v2:
                (group / "cpu.max").write_text(f"{self.quota} {self.PERIOD_US}")
            else:
                (group / "cpu.cfs_period_us").write_text(str(self.PERIOD_US))
                (group / "cpu.cfs_quota_us").write_text(str(self.quota))
            (group / "cgroup.procs").write_text(str(pid))
        except OSError as error:
            raise SystemExit(f"--cpu-quota: cannot make a control group ({error}); run as root") from error
        self.groups.append(group)

    def release(self) -> None:
        """Remove the groups (their processes have ended)."""
        for group in self.groups:
            with contextlib.suppress(OSError):
                group.rmdir()
        self.groups.clear()
