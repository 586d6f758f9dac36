"""Compile the exact search's kernels ahead of time into ``treegen/search/_native``, an extension module
that needs numpy only (see :mod:`treegen.search.native` for why and when it is used).

The package build runs this; after editing a kernel, run ``python -m treegen.search.native_build`` again
(until then the search uses numba's JIT, since the module no longer matches the sources). It needs
numba, setuptools and a C compiler, and takes a minute or two. The code is compiled for this
machine's processor, like numba's own; the module records which, and is not used on another.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from treegen import compiled
from treegen.search.context import Context
from treegen.search.native import KERNELS, MODULE, digest


def argument_types() -> dict[str, tuple[Any, ...]]:
    """The one signature each kernel is called with from Python (numba types)."""
    from numba import types
    i8 = types.int64
    vector, matrix = types.Array(i8, 1, "C"), types.Array(i8, 2, "C")
    table, flags = types.Array(types.uint8, 2, "C"), types.Array(types.boolean, 1, "C")
    bounds = types.Array(i8, 3, "C")
    named: Any = types.NamedTuple  # numba ships no types
    context = named((table, table, i8, i8, bounds, table, table), Context)
    return {
        "split": (context, i8, vector),
        "free_pool": (table, flags, vector),
        "search_order": (vector, flags, vector, i8),
        "guess_bounds": (context, vector, vector, i8),
        "class_bounds": (context, vector, vector, vector, i8, i8, i8, i8, vector),
        "search": (context, vector, i8, i8, flags, vector, i8, matrix, vector),
        "level_bound": (bounds, i8, i8, i8),
        "plan": (context, vector, i8, flags, vector, i8, matrix),
        "new_table": (i8, i8),
        "set_key": (vector, vector, i8),
        "recall": (matrix, vector, vector, i8, i8),
        "remember": (matrix, vector, vector, i8, i8, i8, i8, i8),
        "export_entries": (matrix, types.boolean),
        "import_entries": (matrix, vector, matrix),
        "new_tape": (i8,),
        "write_claim": (vector, i8, i8, i8, i8, matrix, i8),
        "symbol_mask": (flags,),
        "present_mask": (table, vector),
        "cut": (vector, i8),
    }


def build(folder: Path | None = None) -> Path:
    """Compile the module into ``folder`` (default: the package's) and return its path."""
    return compiled.build(folder or Path(__file__).parent, MODULE, __package__, KERNELS,
                          argument_types(), digest(), __name__)


def main() -> int:
    return compiled.main(build, "the exact search's kernels")


if __name__ == "__main__":
    sys.exit(main())
