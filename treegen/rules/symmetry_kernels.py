"""The compiled step of :func:`treegen.rules.symmetry._classes`: every code's least image under a
set of symmetries. In numpy each map took a dozen passes over every code (near a second a history
at 7 × 7); here one pass takes them all. Compiled ahead of time into :mod:`treegen.rules._native`
where the install could (see :mod:`treegen.rules.native`).
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def least_images(codes: np.ndarray, perms: np.ndarray, sigmas: np.ndarray, targets: np.ndarray,
                 lut: np.ndarray, out: np.ndarray) -> None:
    """Into ``out[i]``: the least enumeration index of the images of code ``i`` under every map
    ``m``: position ``p`` takes the symbol at ``perms[m, p]``, mapped by ``sigmas[m]``; a symbol
    it leaves free (-1) becomes, in order of first appearance in the image, the next of
    ``targets`` (the free symbols, ascending). ``lut``: the index of each code's number in base
    ``sigmas.shape[1]`` where the game's codes are not every number (no repeats); empty: the
    number itself."""
    count, length = codes.shape
    maps, symbols = sigmas.shape
    seen = np.full(symbols, -1, dtype=np.int64)
    mapped = lut.size > 0
    for i in range(count):
        least = np.int64(-1)
        for m in range(maps):
            used = 0
            number = np.int64(0)
            for p in range(length):
                source = codes[i, perms[m, p]]
                image = sigmas[m, source]
                if image < 0:
                    if seen[source] < 0:
                        seen[source] = targets[min(used, len(targets) - 1)]
                        used += 1
                    image = seen[source]
                number = number * symbols + image
            if used:
                for p in range(length):
                    seen[codes[i, p]] = -1
            rank = lut[number] if mapped else number
            if least < 0 or rank < least:
                least = rank
        out[i] = least
