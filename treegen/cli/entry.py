"""The ``treegen`` executable: settles the process, then hands over to :mod:`treegen.cli`.

Apart from the CLI because what it sets must be in place before numpy loads.
"""

from __future__ import annotations

import gc
import os


def main() -> None:
    # treegen does no linear algebra, yet numpy's OpenBLAS (and SciPy's, which numba loads to
    # probe for BLAS) starts a thread per core that spins after loading, taking processor time
    # from the search. A setting of the user's own is kept.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    # Loading numpy, click and treegen makes objects by the hundred thousand that live as long as
    # the process, and the collector went through them again and again: a tenth of a small
    # build's time. Collected never while loading, they are then set aside (frozen) and the
    # collector runs on what the command makes.
    gc.disable()
    from treegen.cli.main import main as cli

    gc.freeze()
    gc.enable()
    cli(prog_name="treegen")
