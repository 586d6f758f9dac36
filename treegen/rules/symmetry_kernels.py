"""The compiled steps of symmetry reduction: every code's least image under a set of symmetries
(:func:`treegen.rules.symmetry._classes`; in numpy each map took a dozen passes over every code,
near a second a history at 7 × 7, here one pass takes them all), and the first code of each class
of codes alike up to interchangeable symbols (the exact search's pool and the heuristics' walk).
Compiled ahead of time into :mod:`treegen.rules._native` where the install could (see
:mod:`treegen.rules.native`), and into the search's module with the kernels that call them.
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


@njit(cache=True, nogil=True)
def first_of_classes(codes: np.ndarray, used: np.ndarray, present: np.ndarray,
                     out: np.ndarray) -> int:
    """Into ``out``, ascending, the codes first in their class of codes equivalent on a set of
    secrets; their count, or -1 where no two symbols are interchangeable (every code counts).

    Two kinds of symbols are interchangeable: those no earlier guess used (``used`` false; a
    symmetry of the game that keeps every answer so far) and those no secret of the set holds
    (``present`` false; they score nothing against any of them, so a guess may use any of them
    alike). When the kinds share a symbol, all of them are interchangeable together. A code is
    first in its class when its interchangeable symbols appear in the order of their rank,
    smallest first. The members of a class score alike and are all possible secrets or none."""
    nsym = len(used)
    merged = False
    for k in range(nsym):
        if not used[k] and not present[k]:
            merged = True
    kind = np.full(nsym, -1, dtype=np.int64)  # 0: unused, 1: absent (0 for both when merged)
    rank = np.zeros(nsym, dtype=np.int64)
    counts = np.zeros(2, dtype=np.int64)
    for k in range(nsym):
        which = 0 if not used[k] else 1 if not present[k] else -1
        if which == 1 and merged:
            which = 0
        if which >= 0:
            kind[k] = which
            rank[k] = counts[which]
            counts[which] += 1
    if counts[0] <= 1 and counts[1] <= 1:
        return -1
    count = 0
    for i in range(len(codes)):
        next0 = 0  # symbols of each kind seen so far: those of lower rank
        next1 = 0
        first = True
        for p in range(codes.shape[1]):
            k = codes[i, p]
            which = kind[k]
            if which < 0:
                continue
            wanted = next0 if which == 0 else next1
            if rank[k] < wanted:
                continue
            if rank[k] != wanted:
                first = False
                break
            if which == 0:
                next0 += 1
            else:
                next1 += 1
        if first:
            out[count] = i
            count += 1
    return count
