"""Build hook: compiles the exact search's kernels ahead of time into ``treegen/search/_native``,
the heuristics' scoring kernels into ``treegen/rules/_native`` and the certificate checker's into
``treegen/certificate/_native`` while the package is built or installed (editable installs too).
See ``treegen/compiled.py``.

A machine that cannot compile them (no C compiler) still gets a working install: the build says
so in one line and numba's JIT compiles the kernels at first use instead.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class BuildNative(build_ext):
    def build_extension(self, ext: Extension) -> None:
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        sys.path.insert(0, str(Path(__file__).parent))
        try:
            package, _, _ = ext.name.rpartition(".")
            importlib.import_module(f"{package}.native").build(target.parent)
        except Exception as exc:  # optional: the JIT does the same work
            print(f"treegen: kernels of {ext.name} not compiled ahead of time "
                  f"({type(exc).__name__}: {exc}); numba will compile them at first use",
                  file=sys.stderr)
        finally:
            sys.path.pop(0)

    def copy_extensions_to_source(self) -> None:
        """An editable install copies the module into the source tree: its manifest (the sha256
        the module is checked against before it is loaded) goes with it."""
        super().copy_extensions_to_source()
        build_py = self.get_finalized_command("build_py")
        for ext in self.extensions:
            package, _, _ = ext.name.rpartition(".")
            built = Path(self.build_lib, *package.split("."), MANIFEST)
            source = Path(build_py.get_package_dir(package)) / MANIFEST
            if built.exists():
                self.copy_file(str(built), str(source))


#: The manifest treegen/compiled.py writes beside each module.
MANIFEST = "_native.json"


#: The packages whose ``native`` module builds an extension ``_native`` of their kernels.
NATIVE = ("treegen.search", "treegen.rules", "treegen.certificate")


setup(ext_modules=[Extension(f"{package}._native", sources=[]) for package in NATIVE],
      cmdclass={"build_ext": BuildNative})
