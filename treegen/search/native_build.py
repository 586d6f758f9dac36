"""Compile the exact search's kernels ahead of time into ``treegen/search/_native``, an extension module
that needs numpy only (see :mod:`treegen.search.native` for why and when it is used).

The package build runs this; after editing a kernel, run ``python -m treegen.search.native_build`` again
(until then the search uses numba's JIT, since the module no longer matches the sources). It needs
numba, setuptools and a C compiler, and takes a minute or two. The code is compiled for this
machine's processor, like numba's own; the module records which, and is not used on another.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import shutil
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Any

from treegen.files.atomic import write_atomic
from treegen.search.context import Context
from treegen.search.native import KERNELS, MODULE, digest, manifest_path


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


def _entry(kernel: Any, arity: int) -> Any:
    """A plain function calling ``kernel``: what pycc exports (it cannot export a recursive
    function itself, and calling the JIT dispatcher keeps one definition of each kernel)."""
    names = ", ".join(f"a{i}" for i in range(arity))
    scope: dict[str, Any] = {"kernel": kernel}
    exec(f"def entry({names}):\n    return kernel({names})\n", scope)
    return scope["entry"]


def build(folder: Path | None = None) -> Path:
    """Compile the module into ``folder`` (default: the package's) and return its path. The file
    is replaced atomically: a search running from the old one is not disturbed."""
    from numba.core.errors import NumbaPendingDeprecationWarning
    with warnings.catch_warnings():
        # pycc's pending deprecation, and only that: it is what ships this module
        warnings.filterwarnings("ignore", message=".*pycc.*", category=NumbaPendingDeprecationWarning)
        pycc: Any = importlib.import_module("numba.pycc")
    binding: Any = importlib.import_module("llvmlite.binding")
    folder = folder or Path(__file__).parent
    cc = pycc.CC(MODULE, source_module=__name__)
    cc.target_cpu = binding.get_host_cpu_name()
    signatures = argument_types()
    for module_name, names in KERNELS.items():
        module = importlib.import_module(f".{module_name}", __package__)
        for name in names:
            kernel, args = getattr(module, name), signatures[name]
            kernel.compile(args)
            cc.export(name, kernel.overloads[args].signature)(_entry(kernel, len(args)))
    stamp: dict[str, Any] = {"DIGEST": digest()}
    exec("def built_from():\n    return DIGEST\n", stamp)
    cc.export("built_from", "int64()")(stamp["built_from"])
    with tempfile.TemporaryDirectory(prefix="treegen-native-") as scratch:
        cc.output_dir = scratch
        cc.compile()
        name = str(cc.output_file)
        target, partial = folder / name, folder / f".{name}.partial"
        shutil.copyfile(Path(scratch) / name, partial)
        manifest = {"module": name, "digest": stamp["DIGEST"],
                    "sha256": hashlib.sha256(partial.read_bytes()).hexdigest()}
        os.replace(partial, target)
        write_atomic(str(manifest_path(folder)), json.dumps(manifest, sort_keys=True) + "\n")
    return target


def main() -> int:
    try:
        path = build()
    except Exception as exc:  # a missing compiler or numba: the search still runs, on the JIT
        print(f"treegen: kernels not compiled ahead of time ({type(exc).__name__}: {exc}); "
              "the exact search will compile them with numba at first use", file=sys.stderr)
        return 1
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
