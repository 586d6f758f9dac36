"""The results files of the benchmarks: each a JSON list of runs, one entry added per ``--save``."""

from __future__ import annotations

import json
import os
import platform
import time
from typing import Any


def append(path: str, **entry: Any) -> None:
    """Add an entry (with the date, the machine and its cores) to the results at ``path``."""
    saved = []
    if os.path.exists(path):
        with open(path, encoding="utf-8") as handle:
            saved = json.load(handle)
    saved.append({"when": time.strftime("%Y-%m-%d"), "machine": platform.processor() or
                  platform.machine(), "cores": os.cpu_count(), **entry})
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(saved, handle, indent=1)
        handle.write("\n")
