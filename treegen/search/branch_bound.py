"""The exact search below the top of the tree, entirely in compiled code.

One recursive function walks the branch and bound, small sets and large: no Python frame per
search node. Results are
kept per candidate set in the hash table of :mod:`treegen.search.set_cache` (exact costs with their
canonical guesses, and lower bounds learnt from failed budgets).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from treegen.search.bounds import INFEASIBLE, SMALL
from treegen.search.context import Context
from treegen.search.floors import class_bounds_fitting, guess_bounds
from treegen.search.kernels import (
    Array,
    compiled,
    fitting,
    free_pool,
    level_bound,
    search_order,
    split,
    with_guess,
)
from treegen.search.proof_tape import add_entry, present_mask, symbol_mask, write_claim
from treegen.search.set_cache import recall, remember
from treegen.search.tape import ENTRY_WORDS, NO_SYMMETRY


@compiled
def search(context: Context, cands: Array, budget: int, depth: int, used: Array, allowed: Array,
           widest: int, cache: Array, tape: Array) -> tuple[int, int, Array, Array, int]:
    """Exact cost of a set if it is at most ``budget`` (else -1), its canonical guess, the cache
    (which may have grown: go on with this one), the proof's tape (likewise) and the claim on it
    that backs the outcome: the cost, or budget + 1 when over the budget (-1 when level filling
    already says as much, or when no proof is written: ``tape`` empty).

    ``used`` marks the symbols of the guesses so far (the others are
    interchangeable); ``widest`` is the branching of an enclosing set, which bounds this one's.
    In hard mode ``allowed`` holds the guesses the history allows (ascending, never empty: the
    candidates are among them) and is the pool, split by each guess like the candidates, which
    is why the context's table then scores every guess against every guess; outside hard mode
    it is empty.
    Sets of up to SMALL secrets skip the cache and the sharper class floors (they cost more than
    they save there) and try the possible secret that splits the rest into singletons first,
    which nothing beats. Every shortcut of a small set returns a cost or bound that level
    filling gives too, so it needs no claim.
    """
    n, lbt = len(cands), context.lbt
    small = n <= SMALL
    known, cost, guess, claim = _known(context, cands, budget, depth, allowed, widest, cache)
    if known > 0:
        return cost, guess, cache, tape, claim
    if known < 0:
        return -1, -1, cache, tape, claim
    # branch and bound at this node: guesses in canonical order (one-step bound, possible secret
    # first, index); a guess is dropped as soon as its classes' floors and exact costs reach the
    # best total, and each class gets the budget its siblings leave
    proving = len(tape) > 0
    entries, count = np.empty((16 if proving else 0, ENTRY_WORDS), dtype=np.int64), 0
    child_depth = depth - 1 if depth >= 0 else -1
    hard = len(allowed) > 0
    pool = allowed if hard else free_pool(context.codes, used, cands, context.pools)
    bounds, possible, inner = guess_bounds(context, pool, cands, depth)
    order = search_order(bounds, possible, pool, budget)
    best, best_guess = budget + 1, -1
    for k in range(len(order)):
        i = order[k]
        if bounds[i] >= best:
            break
        guess = pool[i]
        ordered, start, classes = split(context, guess, cands)
        after = used if hard else with_guess(used, context.codes, guess)
        floors, hopeful, fits, fit_start, cache = _floors(context, guess, ordered, start,
                                                          classes, child_depth, inner,
                                                          best - 1 - n, allowed, after, cache)
        if not hopeful:  # its classes' floors refute it: a checker derives them
            continue
        rest = floors.sum()
        total = n
        for c in range(len(classes)):
            f = classes[c]
            rest -= floors[c]
            size, room = start[f + 1] - start[f], best - 1 - total - rest
            claim = -1
            if size <= 2 and child_depth != 0 and (size == 1 or child_depth != 1):
                cost = 2 * size - 1 if room >= 2 * size - 1 else -1  # as search() finds, sooner
            else:
                cost, _, cache, tape, claim = search(
                    context, ordered[start[f]:start[f + 1]], room, child_depth, after,
                    fits[fit_start[f]:fit_start[f + 1]], inner, cache, tape)
            if proving and size < n:  # the class's cost, or what its failed budget shows, with
                # its claim (a guess that splits nothing needs none: no best tree asks it)
                shown = cost if cost >= 0 else room + 1
                if shown > level_bound(lbt, inner, child_depth, size):
                    if claim < 0:
                        tape[1] = 1  # a bound nothing backs: no certificate from this tape
                    entries, count = add_entry(entries, count, guess, f, claim)
            if cost < 0:  # the classes not searched count with their floors
                total = -1
                break
            total += cost
        if total >= 0:
            best, best_guess = total, guess
    claim = -1
    if proving:
        symbols = NO_SYMMETRY if hard else symbol_mask(used)
        present = present_mask(context.codes, cands) if symbols != NO_SYMMETRY else 0
        tape, claim = write_claim(tape, best, depth, symbols, present, entries, count)
    if not small:
        cache = remember(cache, cands, allowed, depth, budget, best if best_guess >= 0 else -1,
                         best_guess, claim)
    if best_guess >= 0:
        return best, best_guess, cache, tape, claim
    return -1, -1, cache, tape, claim


@njit(cache=True, nogil=True, inline="always")
def _known(context: Context, cands: Array, budget: int, depth: int, allowed: Array, widest: int,
           cache: Array) -> tuple[int, int, int, int]:
    """What a set costs when no branching is needed to say: (1, cost, guess, claim) within the
    budget, (-1, -1, -1, claim) over it, (0, -1, -1, -1) when the set must be searched. Small
    sets by their shapes, larger ones by the cache; both by level filling."""
    n = len(cands)
    if n > SMALL:
        known, cost, guess, claim = recall(cache, cands, allowed, depth, budget)
        if known != 0:
            return known, cost, guess, claim
        over = level_bound(context.lbt, widest, depth, n) > budget
        return (-1, -1, -1, -1) if over else (0, -1, -1, -1)
    if n == 0:
        return 1, 0, -1, -1
    if depth == 0:
        return -1, -1, -1, -1
    if n == 1:
        return (1, 1, cands[0], -1) if budget >= 1 else (-1, -1, -1, -1)
    if level_bound(context.lbt, widest, depth, n) > budget or (n == 2 and depth == 1):
        return -1, -1, -1, -1
    if n == 2:
        return (1, 3, cands[0], -1) if budget >= 3 else (-1, -1, -1, -1)
    if depth != 1:
        perfect = _perfect(context.table, cands, context.nfb)
        if perfect >= 0:
            return (1, 2 * n - 1, perfect, -1) if budget >= 2 * n - 1 else (-1, -1, -1, -1)
    return 0, -1, -1, -1


@njit(cache=True, nogil=True, inline="always")
def _floors(context: Context, guess: int, ordered: Array, start: Array, classes: Array,
            depth: int, widest: int, limit: int, allowed: Array, used: Array, cache: Array
            ) -> tuple[Array, bool, Array, Array, Array]:
    """The floors of a guess's classes and the guesses each class allows (see
    :func:`class_bounds_fitting`); a small set's by level filling alone, whose sum is the guess's
    one-step bound, already within the budget."""
    if len(ordered) > SMALL:
        return class_bounds_fitting(context, ordered, start, classes, depth, widest, limit, guess,
                                    allowed, used, cache)
    floors = np.empty(len(classes), dtype=np.int64)
    for c in range(len(classes)):
        f = classes[c]
        floors[c] = level_bound(context.lbt, widest, depth, start[f + 1] - start[f])
    # outside hard mode, slices of no guesses: empty whatever the bounds
    fits, fit_start = fitting(context, guess, allowed, classes) if len(allowed) > 0 \
        else (allowed, start)
    return floors, True, fits, fit_start, cache


@compiled
def _perfect(table: Array, cands: Array, nfb: int) -> int:
    """The first possible secret that splits the others into singletons, or -1."""
    n = len(cands)
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
            return int(cands[i])
    return -1


@compiled
def plan(context: Context, cands: Array, depth: int, used: Array, allowed: Array, widest: int,
         cache: Array) -> tuple[Array, Array]:
    """The canonical optimal guess of every state of a solvable set's subtree, as rows (parent
    row, feedback from it, guess), parents first (row 0: the set itself, parent -1); and the
    cache, which may have grown. Walking the tree here spares a Python call per state."""
    rows = np.empty((2 * len(cands) + 1, 3), dtype=np.int64)  # an optimal tree has < 2n states
    none, count = np.int64(-1), np.int64(0)  # typed as the recursion passes them, not as literals
    rows, count, cache = _plan_into(context, cands, depth, used, allowed, widest, cache, none,
                                    none, rows, count)
    return rows[:count].copy(), cache


@compiled
def _plan_into(context: Context, cands: Array, depth: int, used: Array, allowed: Array,
               widest: int, cache: Array, parent: int, feedback: int, rows: Array, count: int
               ) -> tuple[Array, int, Array]:
    _, guess, cache, _, _ = search(context, cands, INFEASIBLE - 1, depth, used, allowed, widest,
                                   cache, np.empty(0, dtype=np.int64))
    if count == len(rows):
        more = np.empty((2 * len(rows), 3), dtype=np.int64)
        more[:count] = rows
        rows = more
    here = count
    rows[here, 0], rows[here, 1], rows[here, 2] = parent, feedback, guess
    count += 1
    ordered, start, classes = split(context, guess, cands)
    hard = len(allowed) > 0
    after = used if hard else with_guess(used, context.codes, guess)
    fits, fit_start = fitting(context, guess, allowed, classes) if hard else (allowed, start)
    child_depth = depth - 1 if depth >= 0 else -1
    for c in range(len(classes)):
        f = classes[c]
        rows, count, cache = _plan_into(context, ordered[start[f]:start[f + 1]], child_depth,
                                        after, fits[fit_start[f]:fit_start[f + 1]], widest,
                                        cache, here, f, rows, count)
    return rows, count, cache
