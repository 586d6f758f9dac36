"""How long each book of the library took to build, with its jobs and peak memory, tied to the
bytes it built (``books/build-times.json``)."""

from __future__ import annotations

import hashlib
import json
import os
from typing import Any

from treegen.files.atomic import write_atomic
from treegen.library.catalogue import Entry
from treegen.version import __version__

TIMES_FILE = "build-times.json"


def build_times(folder: str) -> dict[str, dict[str, Any]]:
    """The recorded build times in ``folder`` by book name; empty when none are (or unreadable)."""
    try:
        with open(os.path.join(folder, TIMES_FILE), encoding="utf-8") as fh:
            times = json.load(fh)
    except (OSError, ValueError):
        return {}
    return times if isinstance(times, dict) else {}


def record_time(folder: str, entry: Entry, seconds: float, jobs: int | None, digest: str,
                peak: int | None = None) -> None:
    """Remember how long ``entry``'s book took to build and the peak memory of its largest
    process, tied to the bytes it built; ``jobs`` is the number of worker processes of a search
    (None for a strategy that runs in one)."""
    times = build_times(folder)
    times[entry.name] = {"seconds": round(seconds, 1), "jobs": jobs, "sha256": digest,
                         "treegen": __version__, "peak_bytes": peak}
    write_atomic(os.path.join(folder, TIMES_FILE),
                 json.dumps(dict(sorted(times.items())), indent=1, sort_keys=True) + "\n")


def time_text(folder: str, entry: Entry, times: dict[str, dict[str, Any]]) -> str:
    """The index's build time of a book, with its jobs and peak memory: recorded for this very
    file, else nothing."""
    record = times.get(entry.name)
    path = os.path.join(folder, entry.book_file)
    if not isinstance(record, dict) or record.get("sha256") != file_digest(path):
        return ""
    try:
        seconds = float(record["seconds"])
        jobs = None if record.get("jobs") is None else int(record["jobs"])
        peak = None if record.get("peak_bytes") is None else int(record["peak_bytes"])
    except (KeyError, TypeError, ValueError):
        return ""
    whole = round(seconds)
    shown = (f"{seconds:.1f} s" if seconds < 10 else f"{whole} s" if whole < 120
             else f"{whole // 60} min {whole % 60} s" if whole < 7200
             else f"{whole // 3600} h {whole % 3600 // 60} min")
    details = [] if jobs is None else [f"{jobs} job{'s' if jobs != 1 else ''}"]
    if peak is not None and peak > 0:
        details.append(f"{peak / 2 ** 20:.0f} MiB")
    return shown + (f" ({', '.join(details)})" if details else "")


def file_digest(path: str) -> str:
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()
