"""What a model card records of the machine a run trained on, read off that machine.

A card's wall time means little without the machine behind it: a 60-minute budget buys twice
the games on a quiet fast machine that it buys on a slow shared one. So the card carries the
CPU, its core count, how busy the machine was when the run started (the load average), and
the processes and torch threads the run itself used, instead of a fixed description. It also
names the builds of the libraries the numbers came from (``software``): the same command gives
the same bytes on the same builds, and may round differently on others.
"""

from __future__ import annotations

import importlib.metadata
import os
import platform
from pathlib import Path
from typing import Any

CPUINFO = Path("/proc/cpuinfo")


def cpu_name(cpuinfo: Path = CPUINFO) -> str:
    """The CPU's model name (Linux ``/proc/cpuinfo``), else what ``platform`` knows."""
    try:
        for line in cpuinfo.read_text().splitlines():
            key, _, value = line.partition(":")
            if key.strip() == "model name" and value.strip():
                return value.strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def load_average() -> float | None:
    """The 1-minute load average (``None`` where the system has none, e.g. Windows)."""
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return None


SOFTWARE = ("torch", "numpy", "stable-baselines3", "sb3-contrib", "cmaes")


def software() -> dict[str, str | None]:
    """Python's version and each library's of ``SOFTWARE`` (``None``: not installed)."""
    found: dict[str, str | None] = {"python": platform.python_version()}
    for name in SOFTWARE:
        try:
            found[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            found[name] = None
    return found


def machine_record(processes: int = 1, update_threads: int | None = None) -> dict[str, Any]:
    """The card's ``budget.machine``: this machine's CPU and cores, the load average when the
    run started (others' jobs included), and the run's own game processes and the torch
    threads of its network updates (``None`` for a run that trains no network), and the
    library builds (``software``)."""
    return {"cpu": cpu_name(), "cpus": os.cpu_count(), "load_average_at_start": load_average(),
            "processes": int(processes), "update_threads": update_threads,
            "software": software()}
