"""The exact search's memory of candidate sets, in compiled code: an open-addressing hash table
held in one int64 array, so that it crosses into and out of compiled code as plain numpy (the
ahead-of-time kernels of :mod:`treegen.search.native` cannot take numba's typed dictionaries).

Row 0 is the header: [entries, cap]. Every other row is a slot: [key, check, value, guess], key 0
when empty, and in a search that writes its proof a fifth column, the claim on the proof's tape
that backs the value (see :mod:`treegen.search.tape`). An exact cost has its canonical guess
(>= 0); a lower bound learnt from a failed budget has guess -1; and a set's one-step floor
(:mod:`treegen.search.floors`), under a key of its own that adds the branching it was found
under, has guess -2: a class recurs under many guesses and budgets, and scanning its guesses
again was half of a campaign class's search. The table doubles while it is at
most half full; at ``cap`` entries it is emptied, which costs time, never correctness, since every
answer is canonical whatever the cache holds. A function that may grow the table returns it:
callers go on with what it returns.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from treegen.search.kernels import Array, compiled

#: Slots of a new table; it doubles as it fills.
FIRST_SLOTS = 1024


#: Columns of a slot, and of a slot that also keeps the claim backing its value.
PLAIN, WITH_CLAIMS = 4, 5


@compiled
def new_table(cap: int, columns: int) -> Array:
    """An empty table that keeps at most ``cap`` sets before it is emptied; ``columns``
    :data:`WITH_CLAIMS` keeps each value's claim too."""
    table = np.zeros((FIRST_SLOTS + 1, columns), dtype=np.int64)
    table[0, 1] = max(cap, 1)
    return table


@compiled
def set_key(cands: Array, allowed: Array, depth: int) -> tuple[int, int]:
    """Two independent 63-bit hashes of a set at a depth limit: the key (never 0) and a check
    against collisions. In hard mode a set's cost depends on the guesses its history allows too
    (``allowed``, empty outside hard mode), so they are hashed after it."""
    h1 = np.uint64(0xCBF29CE484222325) ^ np.uint64(depth + 2)
    h2 = np.uint64(0x9E3779B97F4A7C15) + np.uint64(len(cands))
    for x in cands:
        v = np.uint64(x)
        h1 = (h1 ^ v) * np.uint64(0x100000001B3)
        h2 = (h2 ^ v) * np.uint64(0xBF58476D1CE4E5B9)
        h2 ^= h2 >> np.uint64(29)
    if len(allowed):
        h1 ^= np.uint64(0xA5A5A5A5A5A5A5A5) + np.uint64(len(allowed))  # where the set ends
        h2 ^= np.uint64(0x5A5A5A5A5A5A5A5A) * np.uint64(len(allowed) + 1)
        for x in allowed:
            v = np.uint64(x)
            h1 = (h1 ^ v) * np.uint64(0x100000001B3)
            h2 = (h2 ^ v) * np.uint64(0xBF58476D1CE4E5B9)
            h2 ^= h2 >> np.uint64(29)
    return np.int64(h1 >> np.uint64(1)) | 1, np.int64(h2 >> np.uint64(1))


@compiled
def _slot(table: Array, key: int) -> int:
    """The row holding ``key``, or the empty row where it would go (linear probing)."""
    mask = len(table) - 2  # slots are a power of two
    i = key & mask
    while True:
        k = table[i + 1, 0]
        if k == key or k == 0:
            return i + 1
        i = (i + 1) & mask


@compiled
def recall(table: Array, cands: Array, allowed: Array, depth: int, budget: int
           ) -> tuple[int, int, int, int]:
    """What the table knows of a set (with the guesses ``allowed``, see :func:`set_key`) within
    ``budget``: (1, cost, guess, claim) when it is solved and fits, (-1, bound, -1, claim) when it
    is known to cost ``bound`` > ``budget`` at least, (0, -1, -1, -1) when it must be searched.
    ``claim`` is the claim backing the value in a table that keeps them, else -1."""
    key, check = set_key(cands, allowed, depth)
    row = _slot(table, key)
    if table[row, 0] == key and table[row, 1] == check:
        value, guess = table[row, 2], table[row, 3]
        claim = table[row, 4] if table.shape[1] == WITH_CLAIMS else -1
        if guess >= 0:
            return (1, value, guess, claim) if value <= budget else (-1, value, -1, claim)
        if value > budget:
            return -1, value, -1, claim
    return 0, -1, -1, -1


@compiled
def remember(table: Array, cands: Array, allowed: Array, depth: int, budget: int, cost: int,
             guess: int, claim: int) -> Array:
    """Record a search's outcome: the exact cost and guess, or (cost -1) that the set costs more
    than ``budget``, with the claim that backs it (-1 in a table that keeps none). Returns the
    table, which may have grown."""
    key, check = set_key(cands, allowed, depth)
    if cost >= 0:
        return _store(table, key, check, cost, guess, claim)
    row = _slot(table, key)
    low = budget + 1
    if table[row, 0] == key and table[row, 1] == check:
        if table[row, 3] >= 0:
            return table  # solved already: the exact cost says more
        if table[row, 2] >= low:
            return table  # a bound as high is known, with its own claim
    return _store(table, key, check, low, -1, claim)


@compiled
def _store(table: Array, key: int, check: int, value: int, guess: int, claim: int) -> Array:
    row = _slot(table, key)
    if table[row, 0] != key:  # a new entry
        slots = len(table) - 1
        if table[0, 0] >= table[0, 1]:
            table[1:] = 0
            table[0, 0] = 0
        elif 2 * (table[0, 0] + 1) > slots:
            table = _grown(table)
        row = _slot(table, key)
        table[0, 0] += 1
    table[row, 1], table[row, 2], table[row, 3] = check, value, guess
    if table.shape[1] == WITH_CLAIMS:
        table[row, 4] = claim
    table[row, 0] = key
    return table


@compiled
def _grown(table: Array) -> Array:
    out = np.zeros((2 * (len(table) - 1) + 1, table.shape[1]), dtype=np.int64)
    out[0] = table[0]
    for r in range(1, len(table)):
        if table[r, 0] != 0:
            out[_slot(out, table[r, 0])] = table[r]
    return out


#: The guess column of a set's floor (see :func:`floor_recall`).
FLOOR = -2


@njit(cache=True, nogil=True, inline="always")
def _floor_key(cands: Array, allowed: Array, depth: int, widest: int) -> tuple[int, int]:
    key, check = set_key(cands, allowed, depth)
    k = (np.uint64(key) ^ (np.uint64(widest + 1) * np.uint64(0x9E3779B97F4A7C15))) * \
        np.uint64(0xD6E8FEB86659FD93)
    c = np.uint64(check) ^ (np.uint64(widest + 7) * np.uint64(0xA0761D6478BD642F))
    return np.int64(k >> np.uint64(1)) | 1, np.int64(c >> np.uint64(1))


@compiled
def floor_recall(table: Array, cands: Array, allowed: Array, depth: int, widest: int) -> int:
    """A set's one-step floor at a depth under a branching, if the table holds it, else -1."""
    key, check = _floor_key(cands, allowed, depth, widest)
    row = _slot(table, key)
    floor: int = table[row, 2]
    if table[row, 0] == key and table[row, 1] == check and table[row, 3] == FLOOR:
        return floor
    return -1


@compiled
def floor_remember(table: Array, cands: Array, allowed: Array, depth: int, widest: int,
                   floor: int) -> Array:
    """Keep a set's one-step floor (see :func:`floor_recall`). Returns the table, which may have
    grown."""
    key, check = _floor_key(cands, allowed, depth, widest)
    return _store(table, key, check, floor, FLOOR, -1)


@compiled
def export_entries(table: Array, exact: bool) -> tuple[Array, Array]:
    """The exact costs (or the lower bounds) as arrays: keys, and (check, value, guess) rows; what
    a checkpoint stores (floors are not kept: they are quick to find again)."""
    guesses = table[1:, 3]
    keep = np.flatnonzero((table[1:, 0] != 0) & ((guesses >= 0) if exact else (guesses == -1))) + 1
    return table[keep, 0].copy(), table[keep, 1:PLAIN].copy()


@compiled
def import_entries(table: Array, keys: Array, values: Array) -> Array:
    """Put exported entries back. Returns the table, which may have grown."""
    for i in range(len(keys)):
        table = _store(table, keys[i], values[i, 0], values[i, 1], values[i, 2], -1)
    return table
