"""A heuristic's subtree of a small set played whole from the codes, for a game too large for a
score table: the compiled twin of :func:`treegen.rules.score_kernels.walk_table`, called from
:meth:`treegen.rules.scoring.CodeScorer.walk`, so that no state below the top of a large tree is
asked in Python. Compiled ahead of time with the scoring kernels (:mod:`treegen.rules.native`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from treegen.rules.score_kernels import _add, _least_factors, _powers, _run, _same, _step

#: Entropy's keys within this much of the best (relative, at least 1) are compared exactly, as
#: :meth:`treegen.strategies.heuristics.Entropy.tied` compares them.
_NEAR = 1e-9


@njit(cache=True, nogil=True)
def walk_codes(rule: int, kind: int, consistent: bool, codes: np.ndarray, tally: np.ndarray,
               lut: np.ndarray, nfb: int, solved: int, cands: np.ndarray, level: int,
               depths: np.ndarray, steps: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The tree a heuristic of ``kind`` (minimax 1, expected 2, parts 3, entropy 4) makes of
    ``cands`` (ascending) in a game of pegs or black pegs (``rule`` 0, 1) with repeats whose
    pool is every code (``consistent``: the possible secrets only), as :func:`walk_table`
    returns it: each node's guess, the answer that leads to it (-1 at the top) and its level,
    depth first, answers in index order; each secret's level into ``depths``. ``steps``: entropy's
    steps of s ln s (at least ``len(cands)``).

    Each state is decided as :meth:`treegen.strategies.heuristics.Heuristic.choose` decides it
    from the codes: the possible secrets are scored first, and where none reaches the least key
    any guess can have, every code over the state's alphabet
    (:func:`treegen.rules.symmetry.guess_alphabet`) is walked as
    :func:`treegen.rules.scoring.scan_alphabet` walks it, with the same bound and the same end of
    the run (minimax, expected and most parts keep only the codes better than the possible
    secrets and than every code before them); the least key wins, entropy's near ties settled
    on their classes' sizes, then a possible secret, then enumeration order. Where a state's set is
    kept by swapping two symbols or two positions, a code and its image split it alike, both
    possible secrets or neither, and the one that comes later loses the tie: only codes that
    no such swap brings forward are walked (:func:`_symmetries`)."""
    length, nsym = codes.shape[1], tally.shape[1]
    blacks = length + 1 if rule == 0 else 1  # a raw answer: blacks * in place + commons * common
    commons = 1 if rule == 0 else 0
    answer_of = _answer_of(rule, lut, length, blacks, commons)
    n0 = len(cands)
    buf = np.empty(n0 * (n0 + 1) + 1, dtype=np.int64)
    buf[:n0] = cands
    used = n0
    most = 2 * n0 + 2
    frames = np.empty((most, 4), dtype=np.int64)  # start, end, level, answer that leads there
    frames[0, 0], frames[0, 1], frames[0, 2], frames[0, 3] = 0, n0, level, -1
    top = 1
    guesses = np.empty(most, dtype=np.int64)
    answers = np.empty(most, dtype=np.int64)
    levels = np.empty(most, dtype=np.int64)
    nodes = 0
    tally_f = np.zeros(nfb, dtype=np.int64)
    begin = np.empty(nfb, dtype=np.int64)
    fill = np.empty(nfb, dtype=np.int64)
    keys = np.empty(nsym ** length, dtype=np.float64)
    lead = np.empty(n0, dtype=np.float64)
    feedback = np.empty((n0, n0), dtype=np.int64)  # the candidates' answers to each other
    row = np.zeros(256, dtype=np.int64)
    copies = np.zeros(nsym, dtype=np.uint8)
    alphabet = np.empty(nsym, dtype=np.uint8)
    factor = _least_factors(n0)
    powers = np.zeros(n0 + 1, dtype=np.int64)
    while top > 0:
        top -= 1
        start, end = frames[top, 0], frames[top, 1]
        here, answer = frames[top, 2], frames[top, 3]
        group = buf[start:end]
        n = end - start
        placed = np.empty((length, n), dtype=np.uint8)  # the secrets by position and symbol
        held = np.empty((nsym, n), dtype=np.uint8)
        for j in range(n):
            for p in range(length):
                placed[p, j] = codes[group[j], p]
            for x in range(nsym):
                held[x, j] = tally[group[j], x]
        if n <= 2:  # the first: it solves itself and leaves the other alone
            guess = group[0]
        else:
            guess = _choice(kind, consistent, codes, nfb, group, placed, held, blacks, commons,
                            answer_of, steps, keys, lead, feedback, row, copies, alphabet,
                            factor, powers)
        guesses[nodes], answers[nodes], levels[nodes] = guess, answer, here
        nodes += 1
        _answers(codes, guess, placed, held, blacks, commons, answer_of, copies, feedback[0])
        for j in range(n):
            tally_f[feedback[0, j]] += 1
        if tally_f[solved] > 0:
            depths[guess] = here
        elif tally_f[feedback[0, 0]] == n:  # never for a heuristic's choice: a guard, not a rule
            raise ValueError("a walked guess does not split its set")
        at = used
        for f in range(nfb):
            begin[f] = at
            fill[f] = at
            if f != solved:
                at += tally_f[f]
        for j in range(n):
            f = feedback[0, j]
            if f != solved:
                buf[fill[f]] = group[j]
                fill[f] += 1
        for f in range(nfb - 1, -1, -1):  # the first answer on top: it is walked first
            if f != solved and tally_f[f] > 0:
                frames[top, 0], frames[top, 1] = begin[f], fill[f]
                frames[top, 2], frames[top, 3] = here + 1, f
                top += 1
            tally_f[f] = 0
        used = at
    return guesses[:nodes], answers[:nodes], levels[:nodes]


@njit(cache=True, nogil=True)
def _answer_of(rule: int, lut: np.ndarray, length: int, blacks: int, commons: int
               ) -> np.ndarray:
    """The answer index of each raw answer (``blacks`` a symbol in place, ``commons`` a symbol
    in common, those in place among them); -1 where there is none."""
    found = np.full((blacks + commons) * length + 1, -1, dtype=np.int64)
    for a in range(length + 1):
        if rule == 1:
            found[a] = a
            continue
        for common in range(a, length + 1):
            found[a * blacks + common] = lut[a * (length + 1) + common - a]
    return found


@njit(cache=True, nogil=True)
def _answers(codes: np.ndarray, g: int, placed: np.ndarray, held: np.ndarray, blacks: int,
             commons: int, answer_of: np.ndarray, copies: np.ndarray, out: np.ndarray) -> None:
    """The answers of the secrets laid out in ``placed`` and ``held`` to guess ``g``, into
    ``out``, counted position by position as :func:`treegen.rules.score_kernels._run` counts
    them. ``copies``: zero, and left so."""
    length, count = placed.shape[0], placed.shape[1]
    for j in range(count):
        out[j] = 0
    for p in range(length):
        x = codes[g, p]
        copies[x] += 1
        wanted = copies[x]
        for j in range(count):
            out[j] += blacks * (placed[p, j] == x) + commons * (held[x, j] >= wanted)
    for p in range(length):
        copies[codes[g, p]] = 0
    for j in range(count):
        out[j] = answer_of[out[j]]


@njit(cache=True, nogil=True)
def _least_key(kind: int, count: int, nfb: int) -> float:
    """:func:`treegen.rules.scoring.least_key`."""
    even, extra = count // nfb, count % nfb
    if kind == 1:
        return float(even + (extra > 0))
    if kind == 2:
        return float((nfb - extra) * even * even + extra * (even + 1) * (even + 1))
    if kind == 3:
        return -float(min(count, nfb))
    return 0.0 if count <= nfb else -np.inf


@njit(cache=True, nogil=True)
def _choice(kind: int, consistent: bool, codes: np.ndarray, nfb: int, group: np.ndarray,
            placed: np.ndarray, held: np.ndarray, blacks: int, commons: int,
            answer_of: np.ndarray, steps: np.ndarray, keys: np.ndarray, lead: np.ndarray,
            feedback: np.ndarray, row: np.ndarray, copies: np.ndarray, alphabet: np.ndarray,
            factor: np.ndarray, powers: np.ndarray) -> int:
    """The guess of :func:`walk_codes` for ``group``, laid out in ``placed`` and ``held``."""
    n, length, nsym = len(group), codes.shape[1], held.shape[0]
    least = _least_key(kind, n, nfb)
    if consistent or least > -np.inf:  # the possible secrets as guesses first, keys exact
        counted = np.zeros(nfb, dtype=np.int64)
        for i in range(n):
            _answers(codes, group[i], placed, held, blacks, commons, answer_of, copies,
                     feedback[i])
            lead[i] = _add(kind, feedback[i, :n], counted, steps, 0.0)
            for j in range(n):
                counted[feedback[i, j]] = 0
        best_lead = lead[:n].min()
        if consistent or best_lead <= least:
            return _settled_lead(kind, group, lead[:n], feedback, row, factor, powers)
        bar = best_lead  # only the codes better than the possible secrets are kept
    else:
        bar = np.inf
    # every code over the alphabet: the symbols the secrets hold and the first of the others
    width = 0
    spare = -1
    for x in range(nsym):
        holds = False
        for j in range(n):
            if held[x, j]:
                holds = True
                break
        if holds or spare < 0:
            if not holds:
                spare = width
            alphabet[width] = x
            width += 1
    every = width ** length
    after = np.zeros(width, dtype=np.int64)
    before = np.zeros(length, dtype=np.int64)
    _symmetries(codes, group, nsym, alphabet[:width], spare, after, before)
    _run(kind, alphabet[:width], placed, held, blacks, commons, steps, keys[:every], bar,
         least, -1, np.zeros(0, dtype=np.uint8), after, before)
    if bar < np.inf and keys[:every].min() == np.inf:  # no code beats the possible secrets
        return _settled_lead(kind, group, lead[:n], feedback, row, factor, powers)
    return _settled_alphabet(kind, group, keys[:every], alphabet[:width], nsym, length, placed,
                             held, blacks, commons, row, factor, powers)


@njit(cache=True, nogil=True)
def _symmetries(codes: np.ndarray, group: np.ndarray, nsym: int, alphabet: np.ndarray,
                spare: int, after: np.ndarray, before: np.ndarray) -> None:
    """The swaps of two symbols, and of two positions, that keep ``group`` (ascending indices
    of codes in number order, every code of ``nsym`` symbols) whole, as the walk's rules
    (:func:`treegen.rules.score_kernels._run`): a swap of the symbols at places d < e of
    ``alphabet`` (``spare``, held by none, never is) sets bit d of ``after[e]``: e may come in
    only after d; of positions p < q, bit p of ``before[q]``: q's symbol may not come before
    p's. Each rule passes the first code of its pair; together, the first of each class of codes
    they join, which is the one a choice could take."""
    n, length, width = len(group), codes.shape[1], len(alphabet)
    weight = np.ones(length, dtype=np.int64)  # a code's number: its symbols in base nsym
    for q in range(length - 2, -1, -1):
        weight[q] = weight[q + 1] * nsym
    for d in range(width):
        for e in range(d + 1, width):
            if d == spare or e == spare:
                continue
            a, b = np.int64(alphabet[d]), np.int64(alphabet[e])
            kept = True
            for j in range(n):
                image = group[j]
                for q in range(length):
                    x = np.int64(codes[group[j], q])
                    if x == a:
                        image += (b - a) * weight[q]
                    elif x == b:
                        image -= (b - a) * weight[q]
                if not _holds(group, image):
                    kept = False
                    break
            if kept:
                after[e] |= np.int64(1) << np.int64(d)
    for p in range(length):
        for q in range(p + 1, length):
            kept = True
            for j in range(n):
                x, y = np.int64(codes[group[j], p]), np.int64(codes[group[j], q])
                image = group[j] + (y - x) * weight[p] + (x - y) * weight[q]
                if x != y and not _holds(group, image):
                    kept = False
                    break
            if kept:
                before[q] |= np.int64(1) << np.int64(p)


@njit(cache=True, nogil=True, inline="always")
def _holds(group: np.ndarray, code: int) -> bool:
    """Whether ascending ``group`` holds ``code`` (halving by hand: numpy's search, compiled
    ahead of time, cost more than the walk it spares)."""
    lo, hi = 0, len(group)
    while lo < hi:
        mid = (lo + hi) >> 1
        if group[mid] < code:
            lo = mid + 1
        else:
            hi = mid
    return bool(lo < len(group) and group[lo] == code)


@njit(cache=True, nogil=True)
def _settled_lead(kind: int, group: np.ndarray, lead: np.ndarray, feedback: np.ndarray,
                  counted: np.ndarray, factor: np.ndarray, powers: np.ndarray) -> int:
    """The choice among the possible secrets alone (all possible: the first of the least)."""
    n = len(group)
    best = lead.min()
    if kind != 4:
        for i in range(n):
            if lead[i] == best:
                return int(group[i])
    winner = -1
    for i in range(n):
        if lead[i] > best + _NEAR * max(1.0, abs(best)):
            continue
        if winner < 0:
            winner = i
            continue
        if _exactly_less(feedback[i, :n], feedback[winner, :n], counted, factor, powers):
            winner = i
    return int(group[winner])


@njit(cache=True, nogil=True)
def _settled_alphabet(kind: int, group: np.ndarray, keys: np.ndarray, alphabet: np.ndarray,
                      nsym: int, length: int, placed: np.ndarray, counts: np.ndarray,
                      blacks: int, commons: int, row: np.ndarray, factor: np.ndarray,
                      powers: np.ndarray) -> int:
    """The choice among the codes over ``alphabet`` (enumeration order): the least key, entropy's
    near ones settled exactly, then the first possible secret, else the first."""
    best = keys.min()
    n = len(group)
    near = best + _NEAR * max(1.0, abs(best)) if kind == 4 else best
    first, first_possible = -1, -1
    single = True  # the near keys all one value: those equal to the best tie, as in Entropy.tied
    for i in range(len(keys)):
        if keys[i] <= near and keys[i] != best:
            single = False
            break
    mine = np.empty(n, dtype=np.int64)
    theirs = np.empty(n, dtype=np.int64)
    for i in range(len(keys)):
        if keys[i] > near:
            continue
        if not single:
            _raw(i, alphabet, nsym, length, placed, counts, blacks, commons, mine)
            if first >= 0:
                _raw(first, alphabet, nsym, length, placed, counts, blacks, commons, theirs)
                if _exactly_less(mine, theirs, row, factor, powers):
                    first, first_possible = -1, -1  # a new least product: the ties so far lose
                elif not _same(mine, theirs, row, factor, powers):
                    continue
        elif keys[i] != best:
            continue
        code = _code(i, alphabet, nsym, length)
        if first < 0:
            first = i
        if first_possible < 0:
            for s in group:
                if s == code:
                    first_possible = i
                    break
    return _code(first_possible if first_possible >= 0 else first, alphabet, nsym, length)


@njit(cache=True, nogil=True)
def _code(i: int, alphabet: np.ndarray, nsym: int, length: int) -> int:
    """The enumeration index of the ``i``-th code over ``alphabet`` (the last position fastest)."""
    width = len(alphabet)
    code, scale = 0, 1
    for _ in range(length):
        code += int(alphabet[i % width]) * scale
        scale *= nsym
        i //= width
    return code


@njit(cache=True, nogil=True)
def _raw(i: int, alphabet: np.ndarray, nsym: int, length: int, placed: np.ndarray,
         counts: np.ndarray, blacks: int, commons: int, out: np.ndarray) -> None:
    """The raw answers of the secrets laid out in ``placed`` and ``counts`` to the ``i``-th code
    over ``alphabet``, as :func:`treegen.rules.score_kernels._run` counts them."""
    width = len(alphabet)
    digits = np.empty(length, dtype=np.int64)
    for p in range(length - 1, -1, -1):
        digits[p] = i % width
        i //= width
    copies = np.zeros(nsym, dtype=np.uint8)
    before = np.zeros(placed.shape[1], dtype=np.uint8)
    after = np.empty(placed.shape[1], dtype=np.uint8)
    for p in range(length):
        x = alphabet[digits[p]]
        copies[x] += 1
        _step(before, after, placed[p], counts[x], x, copies[x], np.uint8(blacks),
              np.uint8(commons))
        before[:] = after
    for j in range(len(out)):
        out[j] = after[j]


@njit(cache=True, nogil=True)
def _exactly_less(a: np.ndarray, b: np.ndarray, row: np.ndarray, factor: np.ndarray,
                  powers: np.ndarray) -> bool:
    """Whether the product of s^s over the classes of ``a`` is less than ``b``'s: unequal
    products are ordered by their sums of s ln s, summed class by class."""
    if _same(a, b, row, factor, powers):
        return False
    mine = _powers(a, 0, row, factor, powers)
    theirs = _powers(b, 0, row, factor, powers)
    return mine < theirs
