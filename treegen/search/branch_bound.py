"""The exact search below the top of the tree, entirely in compiled code.

One recursive function walks the branch and bound: no Python frame per search node. Results are
kept per candidate set in the hash table of :mod:`treegen.set_cache` (exact costs with their
canonical guesses, and lower bounds learnt from failed budgets).
"""

from __future__ import annotations

import numpy as np

from treegen.search.bounds import INFEASIBLE, SMALL
from treegen.search.floors import class_bounds, guess_bounds
from treegen.search.kernels import Array, compiled, free_pool, level_bound, search_order, split, with_guess
from treegen.search.set_cache import recall, remember


@compiled
def solve(table: Array, cands: Array, budget: int, depth: int, nfb: int, solved: int, lbt: Array,
          codes: Array, used: Array, widest: int, cache: Array) -> tuple[int, int, Array]:
    """Exact cost of a set if it is at most ``budget`` (else -1), its canonical guess, and the
    cache (which may have grown: go on with this one).
    ``used`` marks the symbols of the guesses so far (the others are interchangeable); ``widest``
    is the branching of an enclosing set, which bounds this one's.
    """
    n = len(cands)
    if n <= SMALL:
        cost, guess = solve_small(table, cands, budget, depth, nfb, solved, lbt, codes, used, widest)
        return cost, guess, cache
    known, cost, guess = recall(cache, cands, depth, budget)
    if known > 0:
        return cost, guess, cache
    if known < 0 or level_bound(lbt, widest, depth, n) > budget:
        return -1, -1, cache
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
            cost, _, cache = solve(table, ordered[start[f]:start[f + 1]], best - 1 - total - rest,
                                   child_depth, nfb, solved, lbt, codes, after, inner, cache)
            if cost < 0:
                total = -1
                break
            total += cost
        if total >= 0:
            best, best_guess = total, guess
    cache = remember(cache, cands, depth, budget, best if best_guess >= 0 else -1, best_guess)
    return (best, best_guess, cache) if best_guess >= 0 else (-1, -1, cache)


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
def plan(table: Array, cands: Array, depth: int, nfb: int, solved: int, lbt: Array, codes: Array,
         used: Array, widest: int, cache: Array) -> tuple[Array, Array]:
    """The canonical optimal guess of every state of a solvable set's subtree, as rows (parent
    row, feedback from it, guess), parents first (row 0: the set itself, parent -1); and the
    cache, which may have grown. Walking the tree here spares a Python call per state."""
    rows = np.empty((2 * len(cands) + 1, 3), dtype=np.int64)  # an optimal tree has < 2n states
    none, count = np.int64(-1), np.int64(0)  # typed as the recursion passes them, not as literals
    rows, count, cache = _plan_into(table, cands, depth, nfb, solved, lbt, codes, used, widest,
                                    cache, none, none, rows, count)
    return rows[:count].copy(), cache


@compiled
def _plan_into(table: Array, cands: Array, depth: int, nfb: int, solved: int, lbt: Array,
               codes: Array, used: Array, widest: int, cache: Array, parent: int, feedback: int,
               rows: Array, count: int) -> tuple[Array, int, Array]:
    _, guess, cache = solve(table, cands, INFEASIBLE - 1, depth, nfb, solved, lbt, codes, used,
                            widest, cache)
    if count == len(rows):
        more = np.empty((2 * len(rows), 3), dtype=np.int64)
        more[:count] = rows
        rows = more
    here = count
    rows[here, 0], rows[here, 1], rows[here, 2] = parent, feedback, guess
    count += 1
    ordered, start, classes = split(table, guess, cands, nfb, solved)
    after = with_guess(used, codes, guess)
    child_depth = depth - 1 if depth >= 0 else -1
    for c in range(len(classes)):
        f = classes[c]
        rows, count, cache = _plan_into(table, ordered[start[f]:start[f + 1]], child_depth, nfb,
                                        solved, lbt, codes, after, widest, cache, here, f, rows,
                                        count)
    return rows, count, cache
