"""Kernels compiled ahead of time into an extension module, or else by numba's JIT.

Importing numba and loading its cached kernels takes a second and some 140 MB, more than many
whole commands need. So the package build also compiles the kernels that plain builds and the
search call from Python into extension modules that need numpy only (with numba's ``pycc``). A
module is used only when it was built from the kernels' current sources, numpy and numba, on this
processor, and its bytes are those its build recorded; otherwise (no C compiler at install, an
edited kernel, ``TREEGEN_KERNELS=jit``) numba compiles the kernels once and caches them on disk,
and the results are the same, only slower to start. Each user of the seam names its module, its
sources and its kernels (:mod:`treegen.search.native`, :mod:`treegen.rules.native`).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import json
import os
import platform
import shutil
import sys
import tempfile
import warnings
from collections.abc import Callable
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import numpy as np

from treegen.files.atomic import write_atomic


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
    return f"numpy {np.__version__}; numba {_installed_version('numba')}"


def _installed_version(package: str) -> str:
    """An installed package's version, without importing it: from the ``Version:`` line of its
    ``.dist-info`` beside it, read directly, since ``importlib.metadata`` (with the email
    parser it loads) took a tenth of a small build's start; else from ``importlib.metadata``;
    ``"none"`` when the package is not installed."""
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return "none"
    if spec is None or spec.origin is None:
        return "none"
    for info in sorted(Path(spec.origin).parent.parent.glob(f"{package}-*.dist-info")):
        try:
            with open(info / "METADATA", encoding="utf-8") as metadata:
                for line in metadata:
                    if line.startswith("Version:"):
                        return line.split(":", 1)[1].strip()
                    if not line.strip():
                        break
        except OSError:
            continue
    try:
        from importlib.metadata import PackageNotFoundError, version
        return version(package)
    except (ImportError, PackageNotFoundError):
        return "none"


def digest(folder: Path, sources: tuple[str, ...]) -> int:
    """A 60-bit fingerprint of the kernels' sources (files of ``folder``), this processor and the
    numpy and numba."""
    hashed = hashlib.sha256(processor().encode())
    hashed.update(versions().encode())
    for name in sources:
        hashed.update((folder / name).read_bytes())
    return int(hashed.hexdigest()[:15], 16)


def manifest_path(folder: Path, module: str) -> Path:
    """The file the build writes beside the module: its name, sha256 and fingerprint."""
    return folder / f"{module}.json"


def wanted() -> bool:
    """Whether compiled modules may be used at all (``TREEGEN_KERNELS=jit``: never)."""
    return os.environ.get("TREEGEN_KERNELS") != "jit"


def ahead_of_time(package: str, module: str, expected: int) -> ModuleType | None:
    """The module, if it is whole and current. Loading a damaged shared library can kill the
    interpreter (a truncated one with SIGBUS), so its bytes are checked against the manifest the
    build wrote before it is loaded, and its fingerprint before and after."""
    try:
        spec = importlib.util.find_spec(f".{module}", package)
    except (ImportError, ValueError):
        return None
    if spec is None or spec.origin is None:
        return None
    path = Path(spec.origin)
    try:
        manifest = json.loads(manifest_path(path.parent, module).read_text(encoding="utf-8"))
        whole = isinstance(manifest, dict) and manifest.get("module") == path.name and \
            manifest.get("digest") == expected and \
            manifest.get("sha256") == hashlib.sha256(path.read_bytes()).hexdigest()
    except (OSError, ValueError, UnicodeDecodeError, RecursionError):
        return None
    if not whole:
        return None
    try:
        loaded = importlib.import_module(f".{module}", package)
    except ImportError:
        return None
    return loaded if loaded.built_from() == expected else None


def load(package: str, folder: Path, module: str, kernels: dict[str, tuple[str, ...]],
         sources: tuple[str, ...]) -> Any:
    """A package's kernels (``kernels``, compiled from ``sources`` in its ``folder``): its
    extension ``module`` when it is whole and current, else numba's JIT."""
    stamp = digest(folder, sources)
    found = ahead_of_time(package, module, stamp) if wanted() else None
    return found if found is not None else jit(package, kernels, stamp)


def origin(kernels: Any) -> str:
    """Which kernels :func:`load` gave: ``"ahead-of-time"`` or ``"jit"``."""
    return "ahead-of-time" if isinstance(kernels, ModuleType) else "jit"


def jit(package: str, kernels: dict[str, tuple[str, ...]], stamp: int) -> SimpleNamespace:
    """The same kernels from numba's JIT: ``kernels`` maps modules of ``package`` to names;
    ``stamp``, the fingerprint of their sources (see :func:`_cache_current`)."""
    found = {}
    for name, functions in kernels.items():
        source = importlib.import_module(f".{name}", package)
        found.update({f: getattr(source, f) for f in functions})
    _cache_current(package, stamp)
    return SimpleNamespace(**found)


def _cache_current(package: str, stamp: int) -> None:
    """Empty numba's cache on disk of the kernels of ``package`` unless it was kept for sources
    of fingerprint ``stamp``: it knows a kernel by its own file only, so after a change to a
    function it calls in another file (an upgrade, an edit) a cached caller would run the old
    one. Each cache folder keeps the fingerprint it holds kernels of in ``PACKAGE.digest``."""
    folders: dict[str, list[Any]] = {}
    for kernel in _dispatchers(package):
        cache = kernel._cache
        path = getattr(cache, "cache_path", None)  # none where caching is off
        if isinstance(path, str):
            folders.setdefault(path, []).append(cache)
    for folder, caches in folders.items():
        kept = Path(folder) / f"{package}.digest"
        try:
            if kept.read_text(encoding="ascii").strip() == str(stamp):
                continue
        except (OSError, UnicodeDecodeError):
            pass
        try:
            for cache in caches:
                cache.flush()  # an empty index: the kernel is compiled and cached afresh
            write_atomic(str(kept), f"{stamp}\n")
        except OSError:  # a cache folder we may not write to: numba falls back likewise
            continue


def _entry(kernel: Any, arity: int) -> Any:
    """A plain function calling ``kernel``: what pycc exports (it cannot export a recursive
    function itself, and calling the JIT dispatcher keeps one definition of each kernel)."""
    names = ", ".join(f"a{i}" for i in range(arity))
    scope: dict[str, Any] = {"kernel": kernel}
    exec(f"def entry({names}):\n    return kernel({names})\n", scope)
    return scope["entry"]


def build(folder: Path, module: str, package: str, kernels: dict[str, tuple[str, ...]],
          signatures: dict[str, tuple[Any, ...]], stamp: int, source_module: str) -> Path:
    """Compile ``kernels`` (modules of ``package`` to names, each with its one signature) into the
    module ``module`` in ``folder``, stamped with the fingerprint ``stamp``, and return its path.
    The file is replaced atomically: a process running from the old one is not disturbed. Needs
    numba, setuptools and a C compiler; ``source_module`` is the module that asks (pycc's)."""
    from numba.core.errors import NumbaPendingDeprecationWarning
    with warnings.catch_warnings():
        # pycc's pending deprecation, and only that: it is what ships these modules
        warnings.filterwarnings("ignore", message=".*pycc.*", category=NumbaPendingDeprecationWarning)
        pycc: Any = importlib.import_module("numba.pycc")
    binding: Any = importlib.import_module("llvmlite.binding")
    cc = pycc.CC(module, source_module=source_module)
    cc.target_cpu = binding.get_host_cpu_name()
    sources = {name: importlib.import_module(f".{name}", package) for name in kernels}
    _uncached()
    for source_name, names in kernels.items():
        source = sources[source_name]
        for name in names:
            kernel, args = getattr(source, name), signatures[name]
            kernel.compile(args)
            cc.export(name, kernel.overloads[args].signature)(_entry(kernel, len(args)))
    scope: dict[str, Any] = {"DIGEST": stamp}
    exec("def built_from():\n    return DIGEST\n", scope)
    cc.export("built_from", "int64()")(scope["built_from"])
    with tempfile.TemporaryDirectory(prefix="treegen-native-") as scratch:
        cc.output_dir = scratch
        cc.compile()
        name = str(cc.output_file)
        target, partial = folder / name, folder / f".{name}.partial"
        shutil.copyfile(Path(scratch) / name, partial)
        manifest = {"module": name, "digest": stamp,
                    "sha256": hashlib.sha256(partial.read_bytes()).hexdigest()}
        os.replace(partial, target)
        write_atomic(str(manifest_path(folder, module)), json.dumps(manifest, sort_keys=True) + "\n")
    return target


def _uncached() -> None:
    """Compile every kernel of treegen from its source, not from numba's cache on disk: that
    cache knows a kernel by its own file, so a cached caller would bring back the old code of a
    callee since edited in another file (the module built would not be what its digest says)."""
    from numba.core.caching import NullCache
    for kernel in _dispatchers("treegen"):
        kernel._cache = NullCache()


def _dispatchers(package: str) -> list[Any]:
    """numba's dispatchers of the kernels in the loaded modules of ``package``."""
    from numba.core.registry import CPUDispatcher
    return [value for name, loaded in list(sys.modules.items())
            if name.startswith(f"{package}.") and loaded is not None
            for value in vars(loaded).values() if isinstance(value, CPUDispatcher)]


def main(build_module: Callable[[], Path], what: str) -> int:
    """``python -m`` of a module's build: the path written, or why not in one line (exit 1)."""
    try:
        path = build_module()
    except Exception as exc:  # a missing compiler or numba: everything still runs, on the JIT
        print(f"treegen: {what} not compiled ahead of time ({type(exc).__name__}: {exc}); "
              "numba will compile them at first use", file=sys.stderr)
        return 1
    print(f"wrote {path}")
    return 0
