"""The checker's compiled kernels, as one namespace: built ahead of time, or by numba's JIT.

A large certificate's check spends its time counting one-step floors of classes over every code
(:mod:`treegen.certificate.floor_kernels`). The package build compiles those loops into
``treegen/certificate/_native`` as it does the search's (see :mod:`treegen.compiled` for when the
module is used); they are the checker's own, sharing no code with the search. After editing a
kernel, ``python -m treegen.certificate.native`` compiles the module again.
"""

from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

import treegen.compiled as compiled

#: The kernels the checker calls, by the module that defines them.
KERNELS: dict[str, tuple[str, ...]] = {"floor_kernels": ("least_bounds", "inside_bounds",
                                                          "answer_counts")}
#: What the kernels are compiled from: a module built from other sources is not used.
SOURCES = ("floor_kernels.py", "rules.py")
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


def argument_types() -> dict[str, tuple[Any, ...]]:
    """The one signature each kernel is called with from Python (numba types)."""
    from numba import types
    i8 = types.int64
    vector, matrix = types.Array(i8, 1, "C"), types.Array(i8, 2, "C")
    rows = types.Array(types.uint8, 2, "C")
    return {
        "least_bounds": (rows, vector, vector, vector, i8, i8, vector, matrix, matrix),
        "inside_bounds": (rows, vector, vector, vector, i8, i8, vector),
        "answer_counts": (rows, i8),
    }


def build(folder: Path | None = None) -> Path:
    """Compile the module into ``folder`` (default: the package's) and return its path."""
    return compiled.build(folder or Path(__file__).parent, MODULE, __package__, KERNELS,
                          argument_types(), digest(), __name__)


def main() -> int:
    return compiled.main(build, "the checker's kernels")


if __name__ == "__main__":
    sys.exit(main())
