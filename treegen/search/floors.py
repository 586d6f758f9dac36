"""Lower bounds from the classes a guess makes: the one-step bound of every guess of a set, and a
set's floor (the best one-step bound any guess achieves), in compiled code.

The floors of a guess's classes are what rejects most guesses tried during the exact search, so
their cost is most of the search's. Scores are symmetric, so a block of guesses is tallied by
reading each candidate's row of the score table along the block, in order: reading each guess's
row at the scattered candidates of a small set missed the cache on nearly every secret (about
25 cycles a secret against 3 on 4 pegs x 7 colours).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from treegen.search.bounds import INFEASIBLE
from treegen.search.context import Context
from treegen.search.kernels import (
    Array,
    compiled,
    fitting,
    free_pool,
    level_bound,
    level_row,
    split,
    with_guess,
)
from treegen.search.set_cache import PLAIN, floor_recall, floor_remember, new_table

#: Guesses tallied together: their class counts stay in the first-level cache while the
#: candidates' rows stream past.
BLOCK = 128
#: Secrets tallied between looks at whether a block's guesses can still beat the best.
PEEK = 8
#: Sets of at least this many secrets have the guesses their count of classes lets through
#: tallied whole (:func:`_tally_whole`); smaller ones look, as they go, whether each can still win.
WHOLE = 128
#: A block's guesses are counted along the whole run of codes they span, in vector steps, when
#: the run is at most this long: cheaper than reading each guess's answer where it lies, even
#: when only one code in four of the run is a guess of the pool (see :func:`_classes_of`).
SPAN = 4 * BLOCK


@njit(cache=True, nogil=True, inline="always")
def _tally(by_secret: Array, cands: Array, guesses: Array, lo: int, m: int, sub: Array,
           tally: Array) -> None:
    """Class sizes of ``guesses[lo:lo + m]`` on ``cands`` into ``tally[:m]``, reading the table by
    secrets (``by_secret[s, g]``: a row per secret holds its answer to every guess). The guesses
    are copied to ``sub`` first: indexing with ``lo + i`` in the inner loop compiled three times
    slower."""
    for i in range(m):
        sub[i] = guesses[lo + i]
        tally[i] = 0
    n = len(cands)
    pairs = n - n % 2
    for j in range(0, pairs, 2):
        row, row2 = by_secret[cands[j]], by_secret[cands[j + 1]]
        for i in range(m):
            g = np.uint64(sub[i])  # unsigned: no check for a negative index
            tally[i, row[g]] += 1
            tally[i, row2[g]] += 1
    if pairs < n:
        row = by_secret[cands[n - 1]]
        for i in range(m):
            tally[i, row[np.uint64(sub[i])]] += 1


@compiled
def _tally_width(nfb: int) -> int:
    """Columns of a tally: the feedbacks, padded to whole cache-friendly rows of 16."""
    width: int = (nfb + 15) // 16 * 16
    return width


@compiled
def guess_bounds(context: Context, pool: Array, cands: Array, depth: int
                 ) -> tuple[Array, Array, int]:
    """One-step bound of every guess in ``pool``: |S| + sum of lower bounds of its classes
    (``by_secret``: the score table read by secrets, see :func:`_tally`).

    Also returns whether each guess is itself a possible secret, and the most non-solved classes
    any guess makes (the branching that bounds every set below this one).
    """
    by_secret, nfb, solved, lbt = context.by_secret, context.nfb, context.solved, context.lbt
    if len(cands) < 65536:  # 16-bit counts where they fit: half the cache lines
        sizes = np.empty((len(pool), _tally_width(nfb)), dtype=np.uint16)
        return _guess_bounds(by_secret, pool, cands, nfb, solved, lbt, depth, sizes)
    wide = np.empty((len(pool), _tally_width(nfb)), dtype=np.int32)
    return _guess_bounds(by_secret, pool, cands, nfb, solved, lbt, depth, wide)


@compiled
def _guess_bounds(by_secret: Array, pool: Array, cands: Array, nfb: int, solved: int, lbt: Array,
                  depth: int, sizes: Array) -> tuple[Array, Array, int]:
    n = len(cands)
    sub = np.empty(BLOCK, dtype=np.int64)
    widest = 1
    for lo in range(0, len(pool), BLOCK):
        m = min(BLOCK, len(pool) - lo)
        block = sizes[lo:lo + m]
        _tally(by_secret, cands, pool, lo, m, sub, block)
        for i in range(m):
            parts = 0
            for f in range(nfb):
                parts += block[i, f] > 0
            widest = max(widest, parts - (block[i, solved] > 0))
    level = level_row(lbt, widest, depth - 1 if depth >= 0 else -1)
    bounds = np.empty(len(pool), dtype=np.int64)
    possible = np.empty(len(pool), dtype=np.bool_)
    for i in range(len(pool)):
        counts = sizes[i]
        total = n - level[counts[solved]]
        for f in range(nfb):
            total += level[counts[f]]
        bounds[i] = min(total, INFEASIBLE)
        possible[i] = counts[solved] > 0
    return bounds, possible, widest


@compiled
def set_bound(context: Context, cands: Array, depth: int, widest: int, guesses: Array,
              used: Array) -> int:
    """A set's floor: the best one-step bound any guess achieves on it, sharper than level
    filling. ``widest`` is the branching of an enclosing set; ``guesses`` those hard mode allows
    (empty: every guess), fewer to score and a floor as sharp as the rule; ``used`` the symbols
    of the set's history.

    Possible secrets come first; the scan stops at the level-filling floor, which no guess can
    beat, and skips the other guesses once a possible secret beats every guess outside the set.
    Those others are one per class of interchangeable symbols (:func:`free_pool`): guesses alike
    up to such symbols split the set alike, so the floor is the same, from a fraction of the
    guesses once the set lacks a symbol or two.
    """
    return _set_bound(context.table, context.by_secret, context.nfb, context.solved, context.lbt,
                      context.codes, context.pools, cands, depth, widest, guesses, used)


@compiled
def _set_bound(table: Array, by_secret: Array, nfb: int, solved: int, lbt: Array, codes: Array,
               pools: Array, cands: Array, depth: int, widest: int, guesses: Array, used: Array,
               cap: int = INFEASIBLE) -> int:
    """:func:`set_bound` with only the tables it reads: it runs for every class of every guess
    tried, and passing it the whole context was measurably slower (docs/performance.md).
    Below INFEASIBLE, ``cap`` is at most the best bound of the set's own secrets as guesses
    (:func:`_candidates_bound`), which are then not scored again, and the floor is sought only
    below it: the least of the floor and ``cap`` is returned (a set whose floor counts parts
    returns its floor)."""
    n = len(cands)
    floor = level_bound(lbt, widest, depth, n)
    if n <= 2:
        return floor
    level = level_row(lbt, widest, depth - 1 if depth >= 0 else -1)
    if level[n] == 2 * n - 1 and nfb <= 64 and len(guesses) == 0:
        return max(floor, _parts_bound(table, by_secret, cands))
    if level[n] == 2 * n - 1 and nfb <= 256:
        return max(floor, _parts_bound_wide(table, by_secret, cands, guesses, (nfb + 63) // 64))
    outside = _outside(lbt, widest, depth, n, floor)
    best = cap
    if best == INFEASIBLE:
        best = _scan(by_secret, cands, cands, nfb, solved, level, best, floor)
    if best <= max(floor, outside):
        return max(best, floor)
    every = guesses if len(guesses) else free_pool(codes, used, cands, pools)
    return max(floor, _scan(by_secret, cands, every, nfb, solved, level, best, floor))


@compiled
def _candidates_bound(table: Array, by_secret: Array, nfb: int, solved: int, lbt: Array,
                      cands: Array, depth: int, widest: int, guesses: Array
                      ) -> tuple[int, int, bool]:
    """What a set's own secrets, as guesses, say of its floor: (a lower bound, an upper bound,
    whether they are equal), at the cost of n^2 scores rather than n per guess of the game.
    The best of them is the floor unless a guess outside the set beats it, and none can go
    below the floor of a set of n + 1 less the one it cannot solve at once."""
    n = len(cands)
    floor = level_bound(lbt, widest, depth, n)
    if n <= 2:
        return floor, floor, True
    level = level_row(lbt, widest, depth - 1 if depth >= 0 else -1)
    if level[n] == 2 * n - 1 and nfb <= 256:
        most = _most_parts_of_candidates(table, cands, (nfb + 63) // 64)
        if most >= n:  # the most parts any guess can make, and a secret of the set besides
            return max(floor, 3 * n - most), max(floor, 3 * n - most), True
        return floor, max(floor, 3 * n - most), False
    best = _scan(by_secret, cands, cands, nfb, solved, level, INFEASIBLE, floor)
    outside = _outside(lbt, widest, depth, n, floor)
    if best <= max(floor, outside):
        return max(best, floor), max(best, floor), True
    return max(floor, outside), best, False


@njit(cache=True, nogil=True, inline="always")
def _parts_case(lbt: Array, widest: int, depth: int, n: int, nfb: int) -> bool:
    """Whether a set's floor counts its parts (:func:`_parts_bound`) rather than its bounds."""
    level = level_row(lbt, widest, depth - 1 if depth >= 0 else -1)
    return level[n] == 2 * n - 1 and nfb <= 256


@njit(cache=True, nogil=True, inline="always")
def _outside(lbt: Array, widest: int, depth: int, n: int, floor: int) -> int:
    """The least bound of a guess outside a set of n: it solves none of it at once, so its
    classes fill the levels from the second on, as n + 1 secrets would less the first."""
    return level_bound(lbt, widest, depth, n + 1) - 1 if n + 1 < lbt.shape[2] else floor


@compiled
def _scan(by_secret: Array, cands: Array, guesses: Array, nfb: int, solved: int, level: Array,
          best: int, floor: int) -> int:
    """:func:`_scan_into` with a tally of 16-bit counts where they fit (half the cache lines)."""
    if len(cands) < 65536:
        tally = np.zeros((BLOCK, _tally_width(nfb)), dtype=np.uint16)
        return _scan_into(by_secret, cands, guesses, solved, level, best, floor, tally)
    wide = np.zeros((BLOCK, _tally_width(nfb)), dtype=np.int32)
    return _scan_into(by_secret, cands, guesses, solved, level, best, floor, wide)


@compiled
def _scan_into(by_secret: Array, cands: Array, guesses: Array, solved: int, level: Array,
               best: int, floor: int, tally: Array) -> int:
    """The least of ``best`` and the one-step bounds of ``guesses`` on ``cands``; the scan stops
    at ``floor``, which no guess beats. ``tally`` comes in zeroed and is left so.

    Where level filling is convex (each secret more in a class costs at least as much as the
    last), the classes a guess makes bound it from below: n secrets in p classes cost at least
    what p classes as even as can be cost. Counting them is a bit per feedback, far cheaper than
    tallying, so guesses are counted first, a block at a time, and only those whose count leaves
    them a chance are tallied, in blocks of their own, and whole (:func:`_tally_whole`): few
    of those fail only part way. Elsewhere every guess is tallied, and given up part way once it
    cannot win (:func:`_tally_some`)."""
    n = len(cands)
    step = np.empty(n + 1, dtype=np.int64)
    for c in range(n):
        step[c] = level[c + 1] - level[c]
    convex = tally.shape[1] <= 64  # feedbacks as bits of one word
    for c in range(n - 1):
        convex &= step[c] <= step[c + 1]
    # the least a guess of p classes costs, by p (one solving a secret of the set, or none)
    solving, missing = np.empty(65, dtype=np.int64), np.empty(65, dtype=np.int64)
    for parts in range(65):
        solving[parts] = n + _even(level, n - 1, parts - 1)
        missing[parts] = n + _even(level, n, parts)
    sub = np.empty(BLOCK, dtype=np.int64)
    masks = np.empty(BLOCK, dtype=np.uint64)
    run = np.empty(SPAN, dtype=np.uint64)
    sums = np.empty(BLOCK, dtype=np.int64)
    pending = np.empty(2 * BLOCK, dtype=np.int64)
    waiting = 0
    one = np.uint64(1)
    for lo in range(0, len(guesses), BLOCK):
        m = min(BLOCK, len(guesses) - lo)
        for i in range(m):
            sub[i] = guesses[lo + i]
        if convex:
            _classes_of(by_secret, cands, sub, m, masks, run)
            for i in range(m):
                parts = _popcount(masks[i])
                if (masks[i] >> np.uint64(solved)) & one:
                    least = solving[parts]
                else:
                    least = missing[parts]
                if least < best:
                    pending[waiting] = sub[i]
                    waiting += 1
        else:
            pending[waiting:waiting + m] = sub[:m]
            waiting += m
        last = lo + m == len(guesses)
        while waiting >= BLOCK or (last and waiting > 0):
            k = min(BLOCK, waiting)
            if convex and n >= WHOLE:
                best = _tally_whole(by_secret, cands, pending[:k], level, solved, best, tally)
            else:
                best = _tally_some(by_secret, cands, pending[:k], step, level, solved, best,
                                   tally, sums)
            pending[:waiting - k] = pending[k:waiting].copy()
            waiting -= k
            if best <= floor:
                return best
    return min(best, INFEASIBLE)


@njit(cache=True, nogil=True, inline="always")
def _classes_of(by_secret: Array, cands: Array, sub: Array, m: int, masks: Array, run: Array
                ) -> None:
    """The feedbacks each of the guesses ``sub[:m]`` gets from ``cands``, a bit each, into
    ``masks[:m]``. A block whose guesses lie within a run of codes no longer than ``run`` is
    counted along the whole run (:func:`_classes_along`, in vector steps) and its guesses' masks
    read from there; a scattered block, guess by guess, four secrets' rows at a time: each
    guess's mask is read and written once per four answers rather than once per answer, and
    guesses index the rows unsigned (no check for a negative index)."""
    first, last = sub[0], sub[0]
    for i in range(m):
        first, last = min(first, sub[i]), max(last, sub[i])
    if last - first < len(run):
        _classes_along(by_secret, cands, first, last - first + 1, run)
        for i in range(m):
            masks[i] = run[sub[i] - first]
        return
    one = np.uint64(1)
    n = len(cands)
    masks[:m] = 0
    quads = n - n % 4
    for j in range(0, quads, 4):
        r0, r1 = by_secret[cands[j]], by_secret[cands[j + 1]]
        r2, r3 = by_secret[cands[j + 2]], by_secret[cands[j + 3]]
        for i in range(m):
            g = np.uint64(sub[i])
            masks[i] |= (one << np.uint64(r0[g])) | (one << np.uint64(r1[g])) | \
                (one << np.uint64(r2[g])) | (one << np.uint64(r3[g]))
    for j in range(quads, n):
        row = by_secret[cands[j]]
        for i in range(m):
            masks[i] |= one << np.uint64(row[np.uint64(sub[i])])


@njit(cache=True, nogil=True, inline="always")
def _classes_along(by_secret: Array, cands: Array, first: int, count: int, masks: Array) -> None:
    """The feedbacks each of the ``count`` codes from ``first`` on gets from ``cands``, a bit
    each, into ``masks[:count]``: the rows read in runs, four secrets at a time, in a loop that
    vectorises (a code's mask is read and written once per four answers)."""
    one = np.uint64(1)
    n = len(cands)
    masks[:count] = 0
    quads = n - n % 4
    for j in range(0, quads, 4):
        r0 = by_secret[cands[j], first:first + count]
        r1 = by_secret[cands[j + 1], first:first + count]
        r2 = by_secret[cands[j + 2], first:first + count]
        r3 = by_secret[cands[j + 3], first:first + count]
        for i in range(count):
            masks[i] |= (one << np.uint64(r0[i])) | (one << np.uint64(r1[i])) | \
                (one << np.uint64(r2[i])) | (one << np.uint64(r3[i]))
    for j in range(quads, n):
        row = by_secret[cands[j], first:first + count]
        for i in range(count):
            masks[i] |= one << np.uint64(row[i])


@njit(cache=True, nogil=True, inline="always")
def _even(level: Array, secrets: int, parts: int) -> int:
    """The least that ``secrets`` cost in ``parts`` classes where level filling is convex:
    classes as even as can be."""
    if parts <= 0:
        return 0 if secrets == 0 else INFEASIBLE
    q, r = secrets // parts, secrets % parts
    least: int = (parts - r) * level[q]
    if r > 0:  # q + 1 is then at most the size of the set: in the table
        least += r * level[q + 1]
    return least


@njit(cache=True, nogil=True, inline="always")
def _tally_whole(by_secret: Array, cands: Array, sub: Array, level: Array, solved: int, best: int,
                 tally: Array) -> int:
    """The least of ``best`` and the bounds of the guesses ``sub`` (at most a block), each guess
    tallied over every secret and its bound summed from its row of the tally after: the guesses
    a count of classes lets through mostly go to the end, where looking at whether they still
    can win, secret by secret, cost more than it saved (5 of 9: 0.7 of the time). ``tally``
    comes in zeroed and is left so."""
    n, m = len(cands), len(sub)
    for j in range(n):
        row = by_secret[cands[j]]
        for i in range(m):
            tally[i, row[np.uint64(sub[i])]] += 1
    empty = level[0]
    for i in range(m):
        total = n - level[tally[i, solved]]
        for f in range(tally.shape[1]):
            total += level[tally[i, f]] - empty
            tally[i, f] = 0
        best = min(best, total)
    return best


@njit(cache=True, nogil=True, inline="always")
def _tally_some(by_secret: Array, cands: Array, sub: Array, step: Array, level: Array,
                solved: int, best: int, tally: Array, sums: Array) -> int:
    """The least of ``best`` and the bounds of the guesses ``sub`` (at most a block). Each
    guess's sum of its classes' level-filling bounds grows as its classes are tallied (a class
    going from c to c + 1 secrets adds level[c + 1] - level[c]), and only the cells tallied are
    cleared after: a set of a few secrets costs a few steps a guess, not one per feedback (Wordle
    has 243). Since the sums only grow, the block stops as soon as none of its guesses can beat
    the best."""
    n, m = len(cands), len(sub)
    # a guess's bound is at least n - most (it is one secret at most) + its sums so far + least
    # for each secret still to tally
    most = max(level[0], level[1])
    least = step[:n].min()
    sums[:m] = 0
    seen = 0
    while seen < n:
        upto = min(n, seen + PEEK)
        for j in range(seen, upto):
            row = by_secret[cands[j]]
            for i in range(m):
                f = row[np.uint64(sub[i])]
                c = tally[i, f]
                tally[i, f] = c + 1
                sums[i] += step[c]
        seen = upto
        if seen < n and sums[:m].min() + (n - seen) * least >= best - n + most:
            break  # no guess of the block can beat the best any more
    if seen == n:
        for i in range(m):
            best = min(best, n - level[tally[i, solved]] + sums[i])
    if n < tally.shape[1]:  # clear by walking the secrets again, else row by row
        for j in range(seen):
            row = by_secret[cands[j]]
            for i in range(m):
                tally[i, row[np.uint64(sub[i])]] = 0
    else:
        tally[:m] = 0
    return best


@njit(cache=True, nogil=True, inline="always")
def _popcount(x: np.uint64) -> int:
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    # a signed count: numba's int() keeps uint64, and max() of int64 and uint64 is a float64
    count: int = np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))
    return count


@compiled
def _parts_bound(table: Array, by_secret: Array, cands: Array) -> int:
    """The floor of a set whose classes all cost 2s - 1 at least (none is too large for that):
    a guess's one-step bound is then 3n - (its classes) - (1 if it is a possible secret), so only
    the number of classes needs counting, one bit per feedback, in a loop that vectorises."""
    n = len(cands)
    one = np.uint64(1)
    most = 0
    for i in range(n):
        row = table[cands[i]]
        mask = np.uint64(0)
        for j in range(n):
            mask |= one << np.uint64(row[np.uint64(cands[j])])
        most = max(most, _popcount(mask) + 1)
    if most >= n:  # 2n - 1 beats every guess, 2n every guess outside the set
        return 3 * n - most
    masks = np.empty(BLOCK, dtype=np.uint64)
    codes = by_secret.shape[1]
    for lo in range(0, codes, BLOCK):
        m = min(BLOCK, codes - lo)
        _classes_along(by_secret, cands, lo, m, masks)
        for i in range(m):
            most = max(most, _popcount(masks[i]))
        if most >= n:
            break
    return 3 * n - most


@compiled
def _parts_bound_wide(table: Array, by_secret: Array, cands: Array, guesses: Array,
                      words: int) -> int:
    """:func:`_parts_bound` for up to 256 feedbacks (Wordle's tiles have 243): a set of feedbacks
    is ``words`` 64-bit words; over the ``guesses`` hard mode allows (empty: every guess). Kept
    apart: the one-word loop of pegs vectorises, this one does not (one function for both is
    slower on pegs; see docs/performance.md)."""
    n = len(cands)
    one = np.uint64(1)
    most = _most_parts_of_candidates(table, cands, words)
    if most >= n:
        return 3 * n - most
    listed = len(guesses) > 0
    count = len(guesses) if listed else by_secret.shape[1]
    masks = np.empty((BLOCK, words), dtype=np.uint64)
    sub = np.empty(BLOCK, dtype=np.int64)
    for lo in range(0, count, BLOCK):
        m = min(BLOCK, count - lo)
        if listed:
            sub[:m] = guesses[lo:lo + m]
        masks[:m] = 0
        for j in range(n):
            row = by_secret[cands[j]]
            if listed:  # scattered columns, each read where it is
                for i in range(m):
                    f = row[sub[i]]
                    masks[i, f >> 6] |= one << np.uint64(f & 63)
            else:  # a run of columns, read in order: far quicker on Wordle
                seg = row[lo:lo + m]
                for i in range(m):
                    masks[i, seg[i] >> 6] |= one << np.uint64(seg[i] & 63)
        for i in range(m):
            parts = 0
            for w in range(words):
                parts += _popcount(masks[i, w])
            most = max(most, parts)
        if most >= n:
            break
    return 3 * n - most


@compiled
def _most_parts_of_candidates(table: Array, cands: Array, words: int) -> int:
    """The most feedbacks a candidate gets from the set, plus one (it solves itself): in the
    terms of :func:`_parts_bound`."""
    n = len(cands)
    one = np.uint64(1)
    most = 0
    mask = np.zeros(words, dtype=np.uint64)
    for i in range(n):
        row = table[cands[i]]
        mask[:] = 0
        for j in range(n):
            f = row[cands[j]]
            mask[f >> 6] |= one << np.uint64(f & 63)
        count = 0
        for w in range(words):
            count += _popcount(mask[w])
        most = max(most, count + 1)
    return most


@compiled
def class_bounds(context: Context, ordered: Array, start: Array, classes: Array, depth: int,
                 widest: int, limit: int, guess: int, allowed: Array, used: Array
                 ) -> tuple[Array, bool]:
    """Floors of the classes of ``guess`` (set_bound each), largest class first; in hard mode
    (``allowed``: the guesses the set allows) each class's floor over the guesses it allows.
    ``used``: the symbols of the classes' history, ``guess`` included.

    Stops as soon as the floors, with level filling for the classes not yet looked at, exceed
    ``limit``; then returns (floors so far, False).
    """
    floors, hopeful, _, _, _ = class_bounds_fitting(context, ordered, start, classes, depth,
                                                    widest, limit, guess, allowed, used,
                                                    new_table(1 << 16, PLAIN))
    return floors, hopeful


@compiled
def first_hopeful(context: Context, pool: Array, order: Array, bounds: Array, at: int, best: int,
                  cands: Array, depth: int, widest: int, allowed: Array, used: Array
                  ) -> tuple[int, Array, Array, Array, Array]:
    """From rank ``at`` of a node's guesses in ``order``, the first whose classes' floors do not
    refute it against a best tree of ``best``: (its rank, its classes as :func:`split` gives
    them, their floors as :func:`class_bounds` gives them). The rank is that of the first guess
    whose one-step bound reaches ``best``, or ``len(order)``, with empty arrays, when none is
    left. Most guesses tried near the root are refuted so: one call here saves a call from
    Python for each (``depth``, ``used``: as for their classes, ``used`` before the guess)."""
    n, hard = len(cands), len(allowed) > 0
    limit = best - 1 - n
    floor_cache = new_table(1 << 16, PLAIN)  # floors of sets, shared by the guesses tried
    k = at
    while k < len(order) and bounds[order[k]] < best:
        guess = pool[order[k]]
        ordered, start, classes = split(context, guess, cands)
        after = used if hard else with_guess(used, context.codes, guess)
        floors, hopeful, _, _, floor_cache = class_bounds_fitting(
            context, ordered, start, classes, depth, widest, limit, guess, allowed, after,
            floor_cache)
        if hopeful:
            return k, ordered, start, classes, floors
        k += 1
    empty = np.empty(0, dtype=np.int64)
    return k, empty, empty, empty, empty


@compiled
def class_bounds_fitting(context: Context, ordered: Array, start: Array, classes: Array,
                         depth: int, widest: int, limit: int, guess: int, allowed: Array,
                         used: Array, cache: Array) -> tuple[Array, bool, Array, Array, Array]:
    """:func:`class_bounds`, and the guesses each class allows as :func:`fitting` groups them,
    which the compiled search goes on with (Python has no use for them: returning them there
    would cost more than the floors on pegs)."""
    count = len(classes)
    out = np.empty(count, dtype=np.int64)
    rest = 0
    for c in range(count):
        f = classes[c]
        out[c] = level_bound(context.lbt, widest, depth, start[f + 1] - start[f])
        rest += out[c]
    if rest > limit:
        return out, False, allowed, start, cache
    # outside hard mode ``allowed`` is empty, and so is every slice of it
    fits, fit_start = fitting(context, guess, allowed, classes) if len(allowed) else (allowed, start)
    # first what each class's own secrets say, n^2 scores each; then the guesses outside the
    # classes, those likeliest to raise the sum first, until the sum refutes the guess or every
    # class has its floor (the same floors in the same order as scanning every class at once)
    upper = out.copy()
    open_ = np.zeros(count, dtype=np.bool_)
    for c in range(count):
        f = classes[c]
        sub = ordered[start[f]:start[f + 1]]
        if len(sub) > 2:
            later = fits[fit_start[f]:fit_start[f + 1]]
            kept = floor_recall(cache, sub, later, depth, widest)
            if kept >= 0:
                low, high, exact = kept, kept, True
            else:
                low, high, exact = _candidates_bound(context.table, context.by_secret,
                                                     context.nfb, context.solved, context.lbt,
                                                     sub, depth, widest, later)
                if exact:
                    cache = floor_remember(cache, sub, later, depth, widest, max(out[c], low))
            sharper = max(out[c], low)
            rest += sharper - out[c]
            out[c], upper[c], open_[c] = sharper, max(sharper, high), not exact
            if rest > limit:
                return out, False, fits, fit_start, cache
    for c in np.argsort(out - upper, kind="mergesort"):
        if not open_[c]:
            continue
        f = classes[c]
        sub = ordered[start[f]:start[f + 1]]
        # the floor that refutes the guess, the other classes as they stand: showing that none
        # of the guesses outside the class goes below it is enough, and sooner done
        need = limit + 1 - (rest - out[c])
        cap = min(upper[c], need) if not _parts_case(context.lbt, widest, depth, len(sub),
                                                     context.nfb) else INFEASIBLE
        later = fits[fit_start[f]:fit_start[f + 1]]
        found = _set_bound(context.table, context.by_secret, context.nfb, context.solved,
                           context.lbt, context.codes, context.pools, sub, depth, widest, later,
                           used, cap)
        sharper = max(out[c], found)
        if found < cap or cap >= upper[c]:  # the floor itself, not only that it reaches cap
            cache = floor_remember(cache, sub, later, depth, widest, sharper)
        rest += sharper - out[c]
        out[c] = sharper
        if rest > limit:
            return out, False, fits, fit_start, cache
    return out, True, fits, fit_start, cache
