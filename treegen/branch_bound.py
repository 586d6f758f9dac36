"""The exact search below the top of the tree, entirely in compiled code.

One recursive function walks the branch and bound: no Python frame per search node. Results are
cached per candidate set in two typed dictionaries (exact costs with their canonical guesses, and
lower bounds learnt from failed budgets) keyed by a 64-bit hash of the set and checked by a second,
independent one; when they hold more entries than their cap they are emptied, which costs time,
never correctness, since every answer is canonical whatever the cache holds.
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.typed import Dict

from .bounds import SMALL
from .floors import class_bounds, guess_bounds
from .kernels import Array, compiled, free_pool, level_bound, search_order, split, with_guess

#: Bump when the cache's keys or values change meaning: checkpoints of another format are refused.
CACHE_FORMAT = 1
#: Bytes one cached set takes in the typed dictionaries, roughly (key, value, hash slot, index).
ENTRY_BYTES = 96


_VALUE = types.UniTuple(types.int64, 3)  # type: ignore[no-untyped-call]


@compiled
def new_cache() -> Dict:
    """An empty cache: set hash -> (check hash, cost or lower bound, guess). Made in compiled code
    so that the dictionary's own code comes from the disk cache (``Dict.empty`` called from Python
    compiles it anew in every process, about 0.6 s)."""
    return Dict.empty(key_type=types.uint64, value_type=_VALUE)


@compiled
def set_key(cands: Array, depth: int) -> tuple[np.uint64, int]:
    """Two independent hashes of a set at a depth limit: the key, and a check against collisions."""
    h1 = np.uint64(0xCBF29CE484222325) ^ np.uint64(depth + 2)
    h2 = np.uint64(0x9E3779B97F4A7C15) + np.uint64(len(cands))
    for x in cands:
        v = np.uint64(x)
        h1 = (h1 ^ v) * np.uint64(0x100000001B3)
        h2 = (h2 ^ v) * np.uint64(0xBF58476D1CE4E5B9)
        h2 ^= h2 >> np.uint64(29)
    return h1, np.int64(h2 >> np.uint64(1))


@compiled
def solve(table: Array, cands: Array, budget: int, depth: int, nfb: int, solved: int, lbt: Array,
          codes: Array, used: Array, widest: int, exact: Dict, lower: Dict, cap: int
          ) -> tuple[int, int]:
    """Exact cost of a set if it is at most ``budget`` (else -1), and its canonical guess.

    ``used`` marks the symbols of the guesses so far (the others are interchangeable); ``widest``
    is the branching of an enclosing set, which bounds this one's.
    """
    n = len(cands)
    if n <= SMALL:
        return solve_small(table, cands, budget, depth, nfb, solved, lbt, codes, used, widest)
    known, cost, guess = recall(exact, lower, cands, depth, budget)
    if known > 0:
        return cost, guess
    if known < 0 or level_bound(lbt, widest, depth, n) > budget:
        return -1, -1
    # branch and bound at this node: guesses in canonical order (one-step bound, possible secret
    # first, index); a guess is dropped as soon as its classes' floors and exact costs reach the
    # best total, and each class gets the budget its siblings leave
    child_depth = depth - 1 if depth >= 0 else -1
    pool = free_pool(codes, used, cands)
    bounds, possible, inner = guess_bounds(table, pool, cands, nfb, solved, lbt, depth)
    order = search_order(bounds, possible, pool, budget)
    best, best_guess = budget + 1, -1
    for k in range(len(order)):
        i = order[k]
        if bounds[i] >= best:
            break
        guess = pool[i]
        ordered, start, classes = split(table, guess, cands, nfb, solved)
        floors, hopeful = class_bounds(table, ordered, start, classes, nfb, solved, lbt, child_depth,
                                       inner, best - 1 - n)
        if not hopeful:
            continue
        after = with_guess(used, codes, guess)
        rest = floors.sum()
        total = n
        for c in range(len(classes)):
            f = classes[c]
            rest -= floors[c]
            cost, _ = solve(table, ordered[start[f]:start[f + 1]], best - 1 - total - rest,
                            child_depth, nfb, solved, lbt, codes, after, inner, exact, lower, cap)
            if cost < 0:
                total = -1
                break
            total += cost
        if total >= 0:
            best, best_guess = total, guess
    remember(exact, lower, cands, depth, budget, best if best_guess >= 0 else -1, best_guess, cap)
    return (best, best_guess) if best_guess >= 0 else (-1, -1)


@compiled
def solve_small(table: Array, cands: Array, budget: int, depth: int, nfb: int, solved: int,
                lbt: Array, codes: Array, used: Array, widest: int) -> tuple[int, int]:
    """Exact cost of a small set if it is at most ``budget`` (else -1), and the canonical guess.

    ``used`` marks the symbols of the guesses so far; ``widest`` is the branching of an enclosing
    set. Returns (cost, guess).
    """
    n = len(cands)
    if n == 0:
        return 0, -1
    if depth == 0:
        return -1, -1
    if n == 1:
        return (1, cands[0]) if budget >= 1 else (-1, -1)
    if level_bound(lbt, widest, depth, n) > budget:
        return -1, -1
    if n == 2:
        if depth == 1:
            return -1, -1
        return (3, cands[0]) if budget >= 3 else (-1, -1)
    child_depth = depth - 1 if depth >= 0 else -1
    # a possible secret that splits the rest into singletons is optimal (2n - 1) and first in order
    if depth != 1:
        sizes = np.zeros(nfb, dtype=np.int64)
        for i in range(n):
            row = table[cands[i]]
            sizes[:] = 0
            perfect = True
            for j in range(n):
                f = row[cands[j]]
                sizes[f] += 1
                if sizes[f] > 1:
                    perfect = False
                    break
            if perfect:
                return (2 * n - 1, cands[i]) if budget >= 2 * n - 1 else (-1, -1)
    pool = free_pool(codes, used, cands)
    bounds, possible, widest = guess_bounds(table, pool, cands, nfb, solved, lbt, depth)
    order = search_order(bounds, possible, pool, budget)
    best = budget + 1
    best_guess = -1
    for k in range(len(order)):
        i = order[k]
        if bounds[i] >= best:
            break
        limit = best - 1
        guess = pool[i]
        ordered, start, classes = split(table, guess, cands, nfb, solved)
        rest = bounds[i] - n
        total = n
        ok = True
        after = with_guess(used, codes, guess)
        for c in range(len(classes)):
            f = classes[c]
            sub = ordered[start[f]:start[f + 1]]
            rest -= level_bound(lbt, widest, child_depth, len(sub))
            cost, _ = solve_small(table, sub, limit - total - rest, child_depth, nfb, solved, lbt, codes,
                                  after, widest)
            if cost < 0:
                ok = False
                break
            total += cost
        if ok:
            best = total
            best_guess = guess
    if best_guess < 0:
        return -1, -1
    return best, best_guess


@compiled
def recall(exact: Dict, lower: Dict, cands: Array, depth: int, budget: int) -> tuple[int, int, int]:
    """What the caches know of a set within ``budget``: (1, cost, guess) when it is solved and fits,
    (-1, -1, -1) when it is known not to fit, (0, -1, -1) when it must be searched."""
    key, check = set_key(cands, depth)
    if key in exact:
        c, cost, guess = exact[key]
        if c == check:
            return (1, cost, guess) if cost <= budget else (-1, -1, -1)
    if key in lower:
        c, low, _ = lower[key]
        if c == check and low > budget:
            return -1, -1, -1
    return 0, -1, -1


@compiled
def remember(exact: Dict, lower: Dict, cands: Array, depth: int, budget: int, cost: int, guess: int,
             cap: int) -> None:
    """Record a search's outcome: the exact cost and guess, or (cost -1) that the set costs more than
    ``budget``. Caches at ``cap`` entries are emptied first."""
    if len(exact) + len(lower) >= cap:
        exact.clear()
        lower.clear()
    key, check = set_key(cands, depth)
    if cost >= 0:
        exact[key] = (check, cost, guess)
        return
    low = budget + 1
    if key in lower:
        c, known, _ = lower[key]
        if c == check and known > low:
            low = known
    lower[key] = (check, low, -1)


@compiled
def export_cache(cache: Dict) -> tuple[Array, Array]:
    """A cache as arrays (keys, values), in the dictionary's order: what a checkpoint stores."""
    keys = np.empty(len(cache), dtype=np.uint64)
    values = np.empty((len(cache), 3), dtype=np.int64)
    for i, (key, value) in enumerate(cache.items()):
        keys[i] = key
        values[i, 0], values[i, 1], values[i, 2] = value
    return keys, values


@compiled
def import_cache(cache: Dict, keys: Array, values: Array) -> None:
    """Put exported entries back into a cache."""
    for i in range(len(keys)):
        cache[keys[i]] = (values[i, 0], values[i, 1], values[i, 2])
