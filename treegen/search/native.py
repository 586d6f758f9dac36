"""The exact search's compiled kernels, as one namespace: built ahead of time, or by numba's JIT.

Importing numba and loading its cached kernels takes a second or more, longer than Mastermind's
whole optimal search; the package build compiles them ahead of time
(:mod:`treegen.search.native_build`, :mod:`treegen.compiled` for when either is used).
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Protocol, cast

import numpy as np

from treegen import compiled
from treegen.search.context import Context

Array = np.ndarray

#: The kernels the search calls from Python, by the module that defines them.
KERNELS: dict[str, tuple[str, ...]] = {
    "kernels": ("split", "free_pool", "search_order", "level_bound"),
    "floors": ("guess_bounds", "class_bounds"),
    "branch_bound": ("search", "plan"),
    "set_cache": ("new_table", "set_key", "recall", "remember", "export_entries", "import_entries"),
    "proof_tape": ("new_tape", "write_claim", "symbol_mask", "present_mask", "cut"),
}
#: What the kernels are compiled from: a module built from other sources is not used.
SOURCES = ("bounds.py", "context.py", "kernels.py", "floors.py", "branch_bound.py", "set_cache.py",
           "tape.py", "proof_tape.py")
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

    def free_pool(self, codes: Array, used: Array, cands: Array) -> Array: ...

    def search_order(self, bounds: Array, possible: Array, pool: Array, limit: int) -> Array: ...

    def guess_bounds(self, context: Context, pool: Array, cands: Array, depth: int
                     ) -> tuple[Array, Array, int]: ...

    def class_bounds(self, context: Context, ordered: Array, start: Array, classes: Array,
                     depth: int, widest: int, limit: int, guess: int, allowed: Array
                     ) -> tuple[Array, bool]: ...

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
    return "ahead-of-time" if isinstance(load(), ModuleType) else "jit"


def _ahead_of_time() -> ModuleType | None:
    return compiled.ahead_of_time(__package__, MODULE, digest())


def _jit() -> SimpleNamespace:
    return compiled.jit(__package__, KERNELS)
