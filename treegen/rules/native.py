"""The heuristics' scoring kernels, as one namespace: built ahead of time, or by numba's JIT.

A heuristic build of a game too large for a score table calls a few kernels from Python
(:mod:`treegen.rules.scoring`, over :mod:`treegen.rules.score_kernels`); compiled into
``treegen/rules/_native`` they spare it numba's import and its loaded kernels, about a second and
140 MB (see :mod:`treegen.compiled` for when the module is used). The kernels that share guesses
among threads are numba's only (``prange``), so a build on several threads imports numba.
After editing a kernel, ``python -m treegen.rules.native`` compiles the module again.
"""

from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from treegen import compiled

#: The kernels called from Python, by the module that defines them.
KERNELS: dict[str, tuple[str, ...]] = {
    "score_kernels": ("scan_serial", "lay_out", "block", "walk_serial", "walk_table",
                      "word_table", "table_counts"),
    "symmetry_kernels": ("least_images",),
    "code_walk": ("walk_codes",),
}
#: What the kernels are compiled from: a module built from other sources is not used.
SOURCES = ("score_kernels.py", "symmetry_kernels.py", "code_walk.py")
#: The extension module the package build writes next to this file.
MODULE = "_native"


def digest() -> int:
    """A 60-bit fingerprint of the kernels' sources, this processor and the numpy and numba."""
    return compiled.digest(Path(__file__).parent, SOURCES)


@lru_cache(maxsize=1)
def load() -> Any:
    """The kernels: ahead of time when that module is current, else numba's."""
    return compiled.load(__package__, Path(__file__).parent, MODULE, KERNELS, SOURCES)


def origin() -> str:
    """Which kernels :func:`load` gives: ``"ahead-of-time"`` or ``"jit"``."""
    return compiled.origin(load())


@lru_cache(maxsize=1)
def threaded() -> SimpleNamespace:
    """The kernels that share their guesses among numba's threads, and numba's thread count."""
    import numba

    from treegen.rules import score_kernels
    return SimpleNamespace(scan=score_kernels.scan_parallel, walk=score_kernels.walk_parallel,
                           threads=numba.get_num_threads, set_threads=numba.set_num_threads,
                           most=int(getattr(numba.config, "NUMBA_NUM_THREADS", 1)))


def argument_types() -> dict[str, tuple[Any, ...]]:
    """The one signature each kernel is called with from Python (numba types)."""
    from numba import types
    i8, f8 = types.int64, types.float64
    vector, flags = types.Array(i8, 1, "C"), types.Array(types.uint8, 1, "C")
    table, reals = types.Array(types.uint8, 2, "C"), types.Array(f8, 1, "C")
    sizes = types.Array(i8, 2, "C")
    words = types.Array(types.uint64, 1, "C")
    return {
        "scan_serial": (i8, i8, table, table, flags, vector, vector, table, table, i8, reals, sizes,
                        reals, f8, f8),
        "lay_out": (table, table, vector),
        "word_table": (i8, i8, words, words, words, words, table),
        "table_counts": (table, types.boolean, vector, vector, sizes),
        "block": (i8, table, table, flags, vector, vector),
        "walk_serial": (i8, flags, table, table, i8, i8, reals, reals, f8, f8, flags),
        "least_images": (table, sizes, sizes, vector, vector, vector),
        "walk_table": (table, vector, i8, types.boolean, i8, i8, vector, i8, vector, reals, table,
                       i8),
        "walk_codes": (i8, i8, types.boolean, table, table, flags, i8, i8, vector, i8, vector,
                       reals),
    }


def build(folder: Path | None = None) -> Path:
    """Compile the module into ``folder`` (default: the package's) and return its path."""
    return compiled.build(folder or Path(__file__).parent, MODULE, __package__, KERNELS,
                          argument_types(), digest(), __name__)


def main() -> int:
    return compiled.main(build, "the scoring kernels")


if __name__ == "__main__":
    sys.exit(main())
