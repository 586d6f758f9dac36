"""The exact search's compiled kernels, as one namespace: built ahead of time, or by numba's JIT.

Importing numba and loading its cached kernels takes a second or more, longer than Mastermind's
whole optimal search; the package build compiles them ahead of time (:func:`build`;
:mod:`treegen.compiled` for when either is used). After editing a kernel, ``python -m
treegen.search.native`` compiles the module again (until then the search uses numba's JIT, since
the module no longer matches the sources); it needs numba, setuptools and a C compiler, and takes
a minute or two. The code is compiled for this machine's processor, like numba's own; the module
records which, and is not used on another.
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any, Protocol, cast

import numpy as np

from treegen import compiled
from treegen.search.context import Context

Array = np.ndarray

#: The kernels the search calls from Python, by the module that defines them.
KERNELS: dict[str, tuple[str, ...]] = {
    "kernels": ("split", "free_pool", "search_order", "level_bound"),
    "floors": ("guess_bounds", "class_bounds", "first_hopeful"),
    "branch_bound": ("search", "plan"),
    "set_cache": ("new_table", "set_key", "recall", "remember", "floor_recall", "floor_remember",
                  "export_entries", "import_entries"),
    "proof_tape": ("new_tape", "write_claim", "symbol_mask", "present_mask", "cut"),
}
#: What the kernels are compiled from: a module built from other sources is not used.
SOURCES = ("bounds.py", "context.py", "kernels.py", "floors.py", "branch_bound.py", "set_cache.py",
           "tape.py", "proof_tape.py", "../rules/symmetry_kernels.py")
#: Bump when the cache's keys or values change meaning: checkpoints of another format are refused.
CACHE_FORMAT = 2
#: Columns of a cached set: key, check, value, guess; and the claim backing the value, in a search
#: that writes its proof (see :mod:`treegen.search.set_cache`).
PLAIN, WITH_CLAIMS = 4, 5
#: Bytes one cached set may take: a 32-byte slot in a table at most half full, and while the
#: table doubles, the old one beside it.
ENTRY_BYTES = 96
#: The extension module the package build writes next to this file.
MODULE = "_native"


class Kernels(Protocol):
    """The compiled kernels' Python signatures (see the modules named in :data:`KERNELS`)."""

    def split(self, context: Context, guess: int, cands: Array) -> tuple[Array, Array, Array]: ...

    def free_pool(self, codes: Array, used: Array, cands: Array, memo: Array) -> Array: ...

    def search_order(self, bounds: Array, possible: Array, pool: Array, limit: int) -> Array: ...

    def guess_bounds(self, context: Context, pool: Array, cands: Array, depth: int
                     ) -> tuple[Array, Array, int]: ...

    def class_bounds(self, context: Context, ordered: Array, start: Array, classes: Array,
                     depth: int, widest: int, limit: int, guess: int, allowed: Array,
                     used: Array) -> tuple[Array, bool]: ...

    def first_hopeful(self, context: Context, pool: Array, order: Array, bounds: Array, at: int,
                      best: int, cands: Array, depth: int, widest: int, allowed: Array,
                      used: Array) -> tuple[int, Array, Array, Array, Array]: ...

    def level_bound(self, lbt: Array, k: int, depth: int, m: int) -> int: ...

    def search(self, context: Context, cands: Array, budget: int, depth: int, used: Array,
               allowed: Array, widest: int, cache: Array, tape: Array
               ) -> tuple[int, int, Array, Array, int]: ...

    def plan(self, context: Context, cands: Array, depth: int, used: Array, allowed: Array,
             widest: int, cache: Array) -> tuple[Array, Array]: ...

    def new_table(self, cap: int, columns: int) -> Array: ...

    def set_key(self, cands: Array, allowed: Array, depth: int) -> tuple[int, int]: ...

    def recall(self, table: Array, cands: Array, allowed: Array, depth: int, budget: int
               ) -> tuple[int, int, int, int]: ...

    def remember(self, table: Array, cands: Array, allowed: Array, depth: int, budget: int,
                 cost: int, guess: int, claim: int) -> Array: ...

    def floor_recall(self, table: Array, cands: Array, allowed: Array, depth: int, widest: int
                     ) -> int: ...

    def floor_remember(self, table: Array, cands: Array, allowed: Array, depth: int,
                       widest: int, floor: int) -> Array: ...

    def export_entries(self, table: Array, exact: bool) -> tuple[Array, Array]: ...

    def import_entries(self, table: Array, keys: Array, values: Array) -> Array: ...

    def new_tape(self, words: int) -> Array: ...

    def write_claim(self, tape: Array, bound: int, depth: int, used: int, present: int,
                    entries: Array, count: int) -> tuple[Array, int]: ...

    def symbol_mask(self, flags: Array) -> int: ...

    def present_mask(self, codes: Array, cands: Array) -> int: ...

    def cut(self, tape: Array, root: int) -> tuple[Array, Array, Array]: ...


def digest() -> int:
    """A 60-bit fingerprint of the kernels' sources, this processor and the numpy and numba."""
    return compiled.digest(Path(__file__).parent, SOURCES)


def manifest_path(folder: Path) -> Path:
    """The file the build writes beside the module: its name, sha256 and fingerprint."""
    return compiled.manifest_path(folder, MODULE)


_LOADED: dict[str, Kernels] = {}


def load() -> Kernels:
    """The kernels: ahead of time when that module is current, else numba's (see module doc)."""
    if "kernels" not in _LOADED:
        module = _ahead_of_time() if compiled.wanted() else None
        _LOADED["kernels"] = cast(Kernels, module if module is not None else _jit())
    return _LOADED["kernels"]


def origin() -> str:
    """Which kernels :func:`load` gives: ``"ahead-of-time"`` or ``"jit"``."""
    return compiled.origin(load())


def _ahead_of_time() -> ModuleType | None:
    return compiled.ahead_of_time(__package__, MODULE, digest())


def _jit() -> SimpleNamespace:
    return compiled.jit(__package__, KERNELS, digest())


def argument_types() -> dict[str, tuple[Any, ...]]:
    """The one signature each kernel is called with from Python (numba types)."""
    from numba import types
    i8 = types.int64
    vector, matrix = types.Array(i8, 1, "C"), types.Array(i8, 2, "C")
    table, flags = types.Array(types.uint8, 2, "C"), types.Array(types.boolean, 1, "C")
    bounds = types.Array(i8, 3, "C")
    named: Any = types.NamedTuple  # numba ships no types
    context = named((table, table, i8, i8, bounds, table, table, matrix), Context)
    return {
        "split": (context, i8, vector),
        "free_pool": (table, flags, vector, matrix),
        "search_order": (vector, flags, vector, i8),
        "guess_bounds": (context, vector, vector, i8),
        "class_bounds": (context, vector, vector, vector, i8, i8, i8, i8, vector, flags),
        "first_hopeful": (context, vector, vector, vector, i8, i8, vector, i8, i8, vector, flags),
        "search": (context, vector, i8, i8, flags, vector, i8, matrix, vector),
        "level_bound": (bounds, i8, i8, i8),
        "plan": (context, vector, i8, flags, vector, i8, matrix),
        "new_table": (i8, i8),
        "set_key": (vector, vector, i8),
        "recall": (matrix, vector, vector, i8, i8),
        "remember": (matrix, vector, vector, i8, i8, i8, i8, i8),
        "floor_recall": (matrix, vector, vector, i8, i8),
        "floor_remember": (matrix, vector, vector, i8, i8, i8),
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
