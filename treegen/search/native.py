"""The exact search's compiled kernels, as one namespace: built ahead of time, or by numba's JIT.

Importing numba and loading its cached kernels takes a second or more, longer than Mastermind's
whole optimal search. So the package build also compiles the kernels ahead of time
(:mod:`treegen.search.native_build`) into an extension module that needs numpy only. It is used when it
was built from the kernels' current sources on this processor; otherwise (no C compiler at
install, an edited kernel, ``TREEGEN_KERNELS=jit``) numba compiles them once and caches them on
disk, and the search is the same, only slower to start.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import json
import os
import platform
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Protocol, cast

import numpy as np

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


def processor() -> str:
    """The processor the kernels are compiled for: its model and instruction sets, since the
    ahead-of-time module uses every instruction the build machine has."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as info:
            lines = info.read().split("\n\n")[0].splitlines()
        wanted = ("model name", "flags", "Features", "CPU part")
        return "\n".join(line for line in lines if line.split(":")[0].strip() in wanted)
    except OSError:
        return f"{platform.machine()} {platform.processor()}"


def versions() -> str:
    """The numpy and numba the kernels are compiled against: the module is not used with others."""
    try:
        from importlib.metadata import PackageNotFoundError, version
        numba = version("numba")
    except (ImportError, PackageNotFoundError):
        numba = "none"
    return f"numpy {np.__version__}; numba {numba}"


def digest() -> int:
    """A 60-bit fingerprint of the kernels' sources, this processor and the numpy and numba."""
    here = Path(__file__).parent
    hashed = hashlib.sha256(processor().encode())
    hashed.update(versions().encode())
    for name in SOURCES:
        hashed.update((here / name).read_bytes())
    return int(hashed.hexdigest()[:15], 16)


def manifest_path(folder: Path) -> Path:
    """The file the build writes beside the module: its name, sha256 and fingerprint."""
    return folder / f"{MODULE}.json"


_LOADED: dict[str, Kernels] = {}


def load() -> Kernels:
    """The kernels: ahead of time when that module is current, else numba's (see module doc)."""
    if "kernels" not in _LOADED:
        module = None if os.environ.get("TREEGEN_KERNELS") == "jit" else _ahead_of_time()
        _LOADED["kernels"] = cast(Kernels, module if module is not None else _jit())
    return _LOADED["kernels"]


def origin() -> str:
    """Which kernels :func:`load` gives: ``"ahead-of-time"`` or ``"jit"``."""
    return "ahead-of-time" if isinstance(load(), ModuleType) else "jit"


def _ahead_of_time() -> ModuleType | None:
    """The module, if it is whole and current. Loading a damaged shared library can kill the
    interpreter (a truncated one with SIGBUS), so its bytes are checked against the manifest the
    build wrote before it is loaded, and its fingerprint before and after."""
    try:
        spec = importlib.util.find_spec(f".{MODULE}", __package__)
    except (ImportError, ValueError):
        return None
    if spec is None or spec.origin is None:
        return None
    path = Path(spec.origin)
    expected = digest()
    try:
        manifest = json.loads(manifest_path(path.parent).read_text(encoding="utf-8"))
        whole = isinstance(manifest, dict) and manifest.get("module") == path.name and \
            manifest.get("digest") == expected and \
            manifest.get("sha256") == hashlib.sha256(path.read_bytes()).hexdigest()
    except (OSError, ValueError, UnicodeDecodeError, RecursionError):
        return None
    if not whole:
        return None
    try:
        module = importlib.import_module(f".{MODULE}", __package__)
    except ImportError:
        return None
    return module if module.built_from() == expected else None


def _jit() -> SimpleNamespace:
    found = {}
    for name, functions in KERNELS.items():
        module = importlib.import_module(f".{name}", __package__)
        found.update({f: getattr(module, f) for f in functions})
    return SimpleNamespace(**found)
