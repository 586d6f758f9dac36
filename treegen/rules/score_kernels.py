"""The compiled kernels of scoring from the codes, called from :mod:`treegen.rules.scoring`:
one branch a rule of feedback (:func:`_answer`), counting a guess's classes or a heuristic's key as
they go (``scan_*``, ``block``), and the walk of every code over an alphabet in enumeration order,
each prefix's pegs kept per secret (``walk_*``). Compiled ahead of time into
:mod:`treegen.rules._native` where the install could (see :mod:`treegen.rules.native`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np
from numba import njit, prange, types
from numba.core.typing.templates import Signature
from numba.extending import intrinsic

from treegen.rules.symmetry_kernels import first_of_classes


@njit(cache=True, nogil=True, inline="always")
def _answer(rule: int, codes: np.ndarray, tally: np.ndarray, g: int, s: int, syms: np.ndarray,
            mult: np.ndarray, k: int, lut: np.ndarray, left: np.ndarray) -> int:
    """The feedback index of secret ``s`` to guess ``g``: pegs through ``lut`` (a, b) -> index,
    with the guess's ``k`` distinct symbols ``syms`` and their counts ``mult``; black pegs as the
    count in place; tiles as the base-3 number of grey, yellow and green (``left``: a scratch
    counter per symbol, all zero between calls)."""
    length = codes.shape[1]
    a = 0
    for p in range(length):
        if codes[g, p] == codes[s, p]:
            a += 1
    if rule == 1:
        return a
    if rule == 0:
        common = 0
        for q in range(k):
            t = tally[s, syms[q]]
            common += mult[q] if mult[q] < t else t
        return int(lut[a * (length + 1) + common - a])
    for p in range(length):  # tiles: a letter out of place is yellow while the secret has it left
        if codes[g, p] != codes[s, p]:
            left[codes[s, p]] += 1
    code = 0
    for p in range(length):
        c = codes[g, p]
        if c == codes[s, p]:
            code = code * 3 + 2
        elif left[c] > 0:
            left[c] -= 1
            code = code * 3 + 1
        else:
            code = code * 3
    for p in range(length):
        left[codes[s, p]] = 0
    return code


@intrinsic
def _ctpop(typingctx: object, x: types.Integer) -> tuple[Signature, Callable[..., Any]] | None:
    if not isinstance(x, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Signature, args: list[Any]) -> Any:
        return builder.ctpop(args[0])

    return x(x), codegen


#: The bits set in an integer (compiled code only), as the processor's own instruction
#: (``popcnt``; on a vector unit that has one, eight words at a time): numba has no popcount,
#: and the shifts and masks that stood for it were most of a score table's time.
ones = cast("Callable[[np.uint64], np.uint64]", _ctpop)


@njit(cache=True, nogil=True)
def word_table(rule: int, width: int, guess_places: np.ndarray, guess_held: np.ndarray,
               places: np.ndarray, held: np.ndarray, out: np.ndarray) -> np.ndarray:
    """Each guess against each secret, from two words a code (:func:`treegen.rules.scoring.
    words_of`): its symbols a byte a position, so that the symbols in place are the zero bytes of
    two codes' xor, and its symbols' counts as bits, so that the symbols in common are the bits
    both hold. Pegs answer by the triangle of (a, b), ``a (width + 1) - a (a - 1) / 2 + b``; black
    pegs by ``a``. Only arithmetic on two words a pair, no lookup, so the loop over secrets runs in
    vector steps (a lookup of the answer's index in it made it five times slower)."""
    low = np.uint64(0x7F7F7F7F7F7F7F7F)
    unused = np.uint64(8 - width)
    side = np.uint64(width + 1)
    for i in range(len(guess_places)):
        placed = guess_places[i]
        mine = guess_held[i]
        row = out[i]
        if rule == 1:
            for j in range(len(places)):
                x = placed ^ places[j]
                row[j] = np.uint8(ones(~(((x & low) + low) | x | low)) - unused)
        else:
            for j in range(len(places)):
                x = placed ^ places[j]
                a = ones(~(((x & low) + low) | x | low)) - unused
                b = ones(mine & held[j]) - a
                row[j] = np.uint8(a * side - ((a * (a - np.uint64(1))) >> np.uint64(1)) + b)
    return out


#: Guesses whose class counts :func:`table_counts` keeps together: a block's counts stay in the
#: first-level cache while the secrets' rows pass.
_COUNT_BLOCK = 256


@njit(cache=True, nogil=True)
def table_counts(table: np.ndarray, by_secret: bool, guesses: np.ndarray, secrets: np.ndarray,
                 out: np.ndarray) -> bool:
    """Into ``out`` (zeros, one row of ``nfb`` a guess), how many of ``secrets`` give each answer
    to each of ``guesses``, read off the score table (``by_secret``: ``table[s, g]``, else
    ``table[g, s]``). False, and ``out`` incomplete, at an answer past ``nfb``: the table is
    not this game's. The indices are the caller's to bound."""
    nfb = out.shape[1]
    for lo in range(0, len(guesses), _COUNT_BLOCK):
        hi = min(lo + _COUNT_BLOCK, len(guesses))
        if by_secret:
            for s in secrets:
                row = table[s]
                for i in range(lo, hi):
                    f = row[guesses[i]]
                    if f >= nfb:
                        return False
                    out[i, f] += 1
        else:
            for i in range(lo, hi):
                row = table[guesses[i]]
                for s in secrets:
                    f = row[s]
                    if f >= nfb:
                        return False
                    out[i, f] += 1
    return True


@njit(cache=True, nogil=True)
def _distinct(codes: np.ndarray, g: int, syms: np.ndarray, mult: np.ndarray) -> int:
    """The distinct symbols of guess ``g`` and how often each occurs; how many there are."""
    k = 0
    for p in range(codes.shape[1]):
        x = codes[g, p]
        q = 0
        while q < k and syms[q] != x:
            q += 1
        if q == k:
            syms[k] = x
            mult[k] = 0
            k += 1
        mult[q] += 1
    return k


#: Guesses a thread scores with one set of buffers.
_BLOCK = 1024
#: Sets of up to this many secrets are scored secret by secret along the guesses, a chunk of
#: this many guesses at a time.
_BY_SECRET, _CHUNK = 64, 512
#: Secrets scored between looks at a guess's key so far.
_PIECE = 512

@njit(cache=True, nogil=True, inline="always")
def beyond(total: float, best: float) -> bool:
    """Whether a key so far has passed the best by more than rounding (``best`` < 0: never)."""
    return best >= 0.0 and total > best + 1e-9 * max(1.0, abs(best))


@njit(cache=True, nogil=True, inline="always")
def _keep(kind: int, i: int, answers: np.ndarray, count: int, row: np.ndarray, steps: np.ndarray,
          sizes: np.ndarray, keys: np.ndarray) -> None:
    """Guess ``i``'s answers to the ``count`` secrets kept as :func:`scan` was asked: its class
    sizes, or its key summed class by class as each grows (:func:`_add`), so that a guess costs
    its secrets, not the answers of the game; ``row`` is left empty."""
    keys[i] = _add(kind, answers[:count], row, steps, 0.0)
    if kind == 0:
        sizes[i, :] = row
    for j in range(count):
        row[answers[j]] = 0


@njit(cache=True, nogil=True)
def lay_out(codes: np.ndarray, tally: np.ndarray, secrets: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray]:
    """The secrets' symbols by position and their tallies by symbol, one row each."""
    length, width, count = codes.shape[1], tally.shape[1], len(secrets)
    placed = np.empty((length, count), dtype=np.uint8)
    held = np.empty((width, count), dtype=np.uint8)
    for j in range(count):
        for p in range(length):
            placed[p, j] = codes[secrets[j], p]
        for x in range(width):
            held[x, j] = tally[secrets[j], x]
    return placed, held


@njit(cache=True, nogil=True)
def scan_serial(rule: int, kind: int, codes: np.ndarray, tally: np.ndarray, lut: np.ndarray,
            guesses: np.ndarray, secrets: np.ndarray, placed: np.ndarray, held: np.ndarray,
            nfb: int, steps: np.ndarray, sizes: np.ndarray, keys: np.ndarray, bound: float,
            least: float = -np.inf) -> None:
    _rows(rule, kind, codes, tally, lut, guesses, 0, len(guesses), secrets, placed, held, nfb,
          steps, sizes, keys, bound, least)


@njit(cache=True, nogil=True, parallel=True)
def scan_parallel(rule: int, kind: int, codes: np.ndarray, tally: np.ndarray, lut: np.ndarray,
              guesses: np.ndarray, secrets: np.ndarray, placed: np.ndarray, held: np.ndarray,
              nfb: int, steps: np.ndarray, sizes: np.ndarray, keys: np.ndarray, bound: float,
              least: float) -> None:
    for b in prange((len(guesses) + _BLOCK - 1) // _BLOCK):
        _rows(rule, kind, codes, tally, lut, guesses, b * _BLOCK,
              min(len(guesses), (b + 1) * _BLOCK), secrets, placed, held, nfb, steps, sizes, keys,
              bound, least)


@njit(cache=True, nogil=True)
def _rows(rule: int, kind: int, codes: np.ndarray, tally: np.ndarray, lut: np.ndarray,
          guesses: np.ndarray, lo: int, hi: int, secrets: np.ndarray, placed: np.ndarray,
          held: np.ndarray, nfb: int, steps: np.ndarray, sizes: np.ndarray, keys: np.ndarray,
          bound: float, least: float) -> None:
    """Guesses ``lo`` to ``hi`` scored and kept, a piece of the secrets at a time, a guess
    dropped once past the best (``bound``, see :func:`scan`; below 0: none is), the run ended
    at the first guess whose key is ``least`` (the others' keys infinite). Pegs and black
    pegs run down the secrets laid out by position and symbol in vector steps (a * (length + 1)
    + b = a * length + common); tiles score pair by pair."""
    length, width, count = codes.shape[1], tally.shape[1], len(secrets)
    row = np.zeros(nfb, dtype=np.int64)
    if rule != 2 and count <= _BY_SECRET:
        _rows_by_secret(rule, kind, codes, tally, lut, guesses, lo, hi, secrets, row, steps, sizes,
                        keys, least)
        return
    key = np.empty(count, dtype=np.uint16)
    syms = np.empty(length, dtype=np.int64)
    mult = np.empty(length, dtype=np.int64)
    left = np.zeros(width, dtype=np.int64)
    best = bound
    for i in range(lo, hi):
        g = guesses[i]
        if rule == 2:
            k = _distinct(codes, g, syms, mult)
        total, done = 0.0, 0
        while done < count and not beyond(total, best):
            end = min(count, done + _PIECE)
            part = key[done:end]  # views from 0: the loops over them vectorise
            if rule == 2:
                for j, s in enumerate(secrets[done:end]):
                    part[j] = _answer(rule, codes, tally, g, s, syms, mult, k, lut, left)
            else:
                _pegs(rule, codes, tally, lut, g, placed[:, done:end], held[:, done:end], part)
            total = _add(kind, part, row, steps, total)
            done = end
        if kind == 0:
            sizes[i, :] = row
        if done < count or beyond(total, best):
            keys[i] = np.inf
        else:
            keys[i] = total
            if best >= 0.0 and total < best:
                best = total
        for j in range(done):
            row[key[j]] = 0
        if keys[i] <= least:
            keys[i + 1:hi] = np.inf
            return


@njit(cache=True, nogil=True, inline="always")
def _pegs(rule: int, codes: np.ndarray, tally: np.ndarray, lut: np.ndarray, g: int,
          placed: np.ndarray, held: np.ndarray, key: np.ndarray) -> None:
    """Pegs (or black pegs) of code ``g`` against the codes laid out in ``placed`` and ``held``
    (as guess or as secret: pegs are symmetric), into ``key``."""
    length, width, count = codes.shape[1], tally.shape[1], len(key)
    key[:] = 0
    for p in range(length):
        symbol, column = codes[g, p], placed[p]
        for j in range(count):
            key[j] += np.uint16(length) * (column[j] == symbol)
    if rule == 0:
        for x in range(width):
            times = tally[g, x]
            if times:
                column = held[x]
                for j in range(count):
                    key[j] += min(column[j], times)
        for j in range(count):
            key[j] = lut[key[j]]
    else:
        for j in range(count):
            key[j] //= length


@njit(cache=True, nogil=True, inline="always")
def _add(kind: int, answers: np.ndarray, row: np.ndarray, steps: np.ndarray, total: float
         ) -> float:
    """Answers added to the class sizes in ``row``, and to the key so far (minimax: the largest
    class; expected: the sum of squares; parts: less one a new class; entropy: the steps of
    s ln s)."""
    for f in answers:
        size = row[f]
        if kind == 1:
            total = max(total, size + 1.0)
        elif kind == 2:
            total += 2.0 * size + 1.0
        elif kind == 3:
            total -= size == 0
        elif kind == 4:
            total += steps[size]
        row[f] = size + 1
    return total


@njit(cache=True, nogil=True)
def _rows_by_secret(rule: int, kind: int, codes: np.ndarray, tally: np.ndarray, lut: np.ndarray,
                    guesses: np.ndarray, lo: int, hi: int, secrets: np.ndarray, row: np.ndarray,
                    steps: np.ndarray, sizes: np.ndarray, keys: np.ndarray, least: float
                    ) -> None:
    """Pegs and black pegs of a few secrets: the guesses laid out by position and symbol, a chunk
    at a time, and each secret run along them in vector steps, so that a guess costs its
    secrets and not a pass per position and symbol; the run ends as in :func:`_rows`."""
    length, width, count = codes.shape[1], tally.shape[1], len(secrets)
    placed = np.empty((length, _CHUNK), dtype=np.uint8)
    held = np.empty((width, _CHUNK), dtype=np.uint8)
    answers = np.empty((count, _CHUNK), dtype=np.uint16)
    column = np.empty(count, dtype=np.uint16)
    for start in range(lo, hi, _CHUNK):
        m = min(_CHUNK, hi - start)
        for t in range(m):
            g = guesses[start + t]
            for p in range(length):
                placed[p, t] = codes[g, p]
            for x in range(width):
                held[x, t] = tally[g, x]
        for j in range(count):  # pegs are symmetric: the secret scored against the guesses
            _pegs(rule, codes, tally, lut, secrets[j], placed[:, :m], held[:, :m], answers[j, :m])
        for t in range(m):
            for j in range(count):
                column[j] = answers[j, t]
            _keep(kind, start + t, column, count, row, steps, sizes, keys)
            if keys[start + t] <= least:
                keys[start + t + 1:hi] = np.inf
                return


@njit(cache=True, nogil=True)
def block(rule: int, codes: np.ndarray, tally: np.ndarray, lut: np.ndarray, guesses: np.ndarray,
          secrets: np.ndarray) -> np.ndarray:
    """The answer of each of ``secrets`` to each of ``guesses``: (guesses, secrets) uint8."""
    out = np.empty((len(guesses), len(secrets)), dtype=np.uint8)
    length, width = codes.shape[1], tally.shape[1]
    for i in range(len(guesses)):
        syms = np.empty(length, dtype=np.int64)
        mult = np.empty(length, dtype=np.int64)
        left = np.zeros(width, dtype=np.int64)
        g = guesses[i]
        k = _distinct(codes, g, syms, mult)
        for j in range(len(secrets)):
            out[i, j] = _answer(rule, codes, tally, g, secrets[j], syms, mult, k, lut, left)
    return out


# Every code over an alphabet, walked as an odometer (see scoring.scan_alphabet).


@njit(cache=True, nogil=True)
def walk_serial(kind: int, alphabet: np.ndarray, placed: np.ndarray, held: np.ndarray,
                blacks: int, commons: int, steps: np.ndarray, keys: np.ndarray,
                bar: float, least: float, reach: np.ndarray) -> None:
    _run(kind, alphabet, placed, held, blacks, commons, steps, keys, bar, least, -1, reach,
         np.zeros(len(alphabet), dtype=np.int64), np.zeros(placed.shape[0], dtype=np.int64))


@njit(cache=True, nogil=True, parallel=True)
def walk_parallel(kind: int, alphabet: np.ndarray, placed: np.ndarray, held: np.ndarray,
                  blacks: int, commons: int, steps: np.ndarray, keys: np.ndarray,
                  bar: float, least: float, reach: np.ndarray) -> None:
    after = np.zeros(len(alphabet), dtype=np.int64)
    before = np.zeros(placed.shape[0], dtype=np.int64)
    for first in prange(len(alphabet)):
        _run(kind, alphabet, placed, held, blacks, commons, steps, keys, bar, least, first,
             reach, after, before)


@njit(cache=True, nogil=True)
def _run(kind: int, alphabet: np.ndarray, placed: np.ndarray, held: np.ndarray,
         blacks: int, commons: int, steps: np.ndarray, keys: np.ndarray,
         bar: float, least: float, first: int, reach: np.ndarray, after: np.ndarray,
         before: np.ndarray) -> None:
    """:func:`_guess_keys` with ``kind`` a constant: each heuristic's walk is compiled on its
    own, its tally free of the others' branches (a tenth of a small set's walk)."""
    if kind == 1:
        _guess_keys(1, alphabet, placed, held, blacks, commons, steps, keys, bar, least, first,
                    reach, after, before)
    elif kind == 2:
        _guess_keys(2, alphabet, placed, held, blacks, commons, steps, keys, bar, least, first,
                    reach, after, before)
    elif kind == 3:
        _guess_keys(3, alphabet, placed, held, blacks, commons, steps, keys, bar, least, first,
                    reach, after, before)
    else:
        _guess_keys(4, alphabet, placed, held, blacks, commons, steps, keys, bar, least, first,
                    reach, after, before)


@njit(cache=True, nogil=True)
def _guess_keys(kind: int, alphabet: np.ndarray, placed: np.ndarray, held: np.ndarray,
                blacks_: int, commons_: int, steps: np.ndarray, keys: np.ndarray,
                bar: float, least: float, first: int, reach: np.ndarray, after: np.ndarray,
                before: np.ndarray) -> None:
    """The guesses whose first symbol is ``alphabet[first]`` (all of them if ``first`` < 0),
    their keys into ``keys``. ``partial[p]``: per secret, the raw answer (blacks * ``blacks_`` +
    commons * ``commons_``) of the guess's first ``p`` positions. The guesses that differ in
    their last symbol only are tallied together, four side by side (below). ``bar`` (infinite:
    every key kept): with minimax, expected and most parts, whose keys are whole numbers, a guess is kept
    only below it, and each key kept becomes the bar, so that only the guesses better than every
    one before them are kept (the first of the least key among them) and the others' keys are
    infinite, a prefix whose classes cannot split into a guess below the bar given up whole
    (:func:`_beyond_reach`). ``reach`` (empty: every
    guess is scored), level by level of the prefixes (see :func:`scoring.scan_alphabet`):
    whether a prefix has a guess to score below it; a prefix without one is passed over, its
    guesses' keys infinite. ``after`` and ``before`` (zero: none), rules of order that pass
    only the first code of each pair a swap of symbols or of positions joins (see
    :func:`treegen.rules.code_walk._symmetries`): the symbol at place d of ``alphabet`` may
    come into a guess only once those at the places of bit mask ``after[d]`` are in it, and
    the symbol at position q may not come before those at the positions of ``before[q]``; the
    guesses that break one are infinite, their prefixes passed over. No array is sliced, and no
    function taking arrays is called, in the loops: a view, or an array bound to a callee's
    argument inside a loop, costs two atomic counts of references each time, more than a
    small set's tally (a quarter of the walk's time when the last position was a function)."""
    length, count, width = placed.shape[0], placed.shape[1], len(alphabet)
    blacks, commons = np.uint8(blacks_), np.uint8(commons_)  # byte steps vectorise
    partial = np.zeros((length, count), dtype=np.uint8)
    top = min(256, (int(blacks) + int(commons)) * length + 1)  # raw answers are below
    rows = np.zeros((width, top), dtype=np.int64)  # each guess's class sizes by raw answer
    stepped = np.empty((width, count), dtype=np.uint8)
    found = np.zeros(width, dtype=np.float64)
    chosen = np.empty(width, dtype=np.int64)
    copies = np.zeros(held.shape[0], dtype=np.uint8)  # of each symbol in the guess's prefix
    digit = np.zeros(length, dtype=np.int64)
    prefix = np.zeros(length, dtype=np.int64)  # the number of digits 0 .. p - 1, base width
    level = np.zeros(length, dtype=np.int64)  # where reach's prefixes of p + 1 digits start
    for p in range(1, length):
        level[p] = level[p - 1] + width ** p
    masked = len(reach) > 0
    span = width ** (length - 1)
    i, end, low = 0, width ** length, 0
    if first >= 0:
        i, end, low = first * span, (first + 1) * span, 1
        if masked and reach[first] == 0:
            for k in range(i, end):
                keys[k] = np.inf
            return
        if length > 1:
            digit[0], prefix[1] = first, first
            _step_position(partial, 0, placed, held, alphabet[first], copies, blacks, commons)
    shift = 2 if commons > 0 else 1  # a last symbol splits a class in at most 4 (black pegs 2)
    strict = bar < np.inf and kind != 4  # entropy's near keys are settled exactly: all kept
    counted = kind != 4  # minimax's, expected's and most parts' keys are whole numbers
    ruled = False  # any rule of order: then, at each position as it is reached, the least
    for d in range(width):  # digit the rules allow there and the digits they shut out
        ruled |= after[d] != 0
    for q in range(length):
        ruled |= before[q] != 0
    bottom = np.zeros(length, dtype=np.int64)
    shut = np.zeros(length, dtype=np.int64)
    reached = True
    p = low  # positions below p are stepped; digit[p] is the next to try there
    while True:
        if reached and ruled:
            bottom[p], shut[p] = 0, 0
            for r in range(p):
                if before[p] >> np.int64(r) & 1:
                    bottom[p] = max(bottom[p], digit[r])
            present = np.int64(0)
            for d in range(width):
                if copies[alphabet[d]] != 0:
                    present |= np.int64(1) << np.int64(d)
            for d in range(width):
                if after[d] & ~present and not present >> np.int64(d) & 1:
                    shut[p] |= np.int64(1) << np.int64(d)
        reached = False
        if p >= length - 1 and strict and _beyond_reach(kind, partial, p, shift, rows, bar):
            for k in range(i, i + width):  # no guess ending here can be kept: given up
                keys[k] = np.inf
            i += width
        elif p >= length - 1:
            # The guesses that end the prefix in each symbol the rules and reach let through
            # (row k of stepped and rows: the one ending in alphabet[chosen[k]]): their answers
            # stepped whole, then tallied four side by side, secret by secret, each guess's
            # classes in a row of rows (left empty), so that no guess waits on another's last
            # count; each key summed in the secrets' order, into found. Four guesses whose keys
            # can no longer fall below the bar (minimax's only grow; each secret left adds at
            # least one to expected's and takes at most one from most parts') are given up as
            # infinite at the end of a piece of the secrets.
            at = level[length - 1] + prefix[length - 1] * width if masked else -1
            lowest, barred = bottom[length - 1], shut[length - 1]
            last = length - 1
            taken = 0
            for d in range(width):
                found[d] = np.inf
                if ((at < 0 or reach[at + d] != 0) and d >= lowest
                        and not barred >> np.int64(d) & 1):
                    chosen[taken] = d
                    taken += 1
            for k in range(taken):
                x = alphabet[chosen[k]]
                wanted = copies[x] + 1
                for j in range(count):
                    stepped[k, j] = (partial[last, j] + blacks * (placed[last, j] == x)
                                     + commons * (held[x, j] >= wanted))
            limit = np.int64(1) << 62
            if strict:
                limit = np.int64(np.ceil(bar)) - 1  # whole keys: below the bar is at most this
            for d in range(0, taken, 4):
                m = min(4, taken - d)
                ka = kb = kc = ke = 0.0  # entropy's
                ia = ib = ic = ie = np.int64(0)  # the others'
                done = 0
                while done < count:
                    stop = min(count, done + _WALK_PIECE)
                    for j in range(done, stop):
                        f = stepped[d, j]
                        size = rows[d, f] + 1
                        rows[d, f] = size
                        if counted:
                            ia = _counted(kind, ia, size)
                        else:
                            ka += steps[size - 1]
                        if m > 1:
                            f = stepped[d + 1, j]
                            size = rows[d + 1, f] + 1
                            rows[d + 1, f] = size
                            if counted:
                                ib = _counted(kind, ib, size)
                            else:
                                kb += steps[size - 1]
                        if m > 2:
                            f = stepped[d + 2, j]
                            size = rows[d + 2, f] + 1
                            rows[d + 2, f] = size
                            if counted:
                                ic = _counted(kind, ic, size)
                            else:
                                kc += steps[size - 1]
                        if m > 3:
                            f = stepped[d + 3, j]
                            size = rows[d + 3, f] + 1
                            rows[d + 3, f] = size
                            if counted:
                                ie = _counted(kind, ie, size)
                            else:
                                ke += steps[size - 1]
                    done = stop  # the least each key can still reach, as the bar is checked:
                    rest = count - done if kind == 2 else done - count if kind == 3 else 0
                    if (ia + rest > limit and (m < 2 or ib + rest > limit)
                            and (m < 3 or ic + rest > limit) and (m < 4 or ie + rest > limit)):
                        break
                given_up = done < count
                if counted:
                    ka, kb, kc, ke = float(ia), float(ib), float(ic), float(ie)
                found[chosen[d]] = np.inf if given_up else ka
                if m > 1:
                    found[chosen[d + 1]] = np.inf if given_up else kb
                if m > 2:
                    found[chosen[d + 2]] = np.inf if given_up else kc
                if m > 3:
                    found[chosen[d + 3]] = np.inf if given_up else ke
                for k in range(d, d + m):
                    if done < top:
                        for j in range(done):
                            rows[k, stepped[k, j]] = 0
                    else:
                        for f in range(top):
                            rows[k, f] = 0
            for d in range(width):
                key = found[d]
                if strict:
                    if key < bar:
                        bar = key
                    else:  # no better: dropped
                        key = np.inf
                keys[i] = key
                i += 1
                if key <= least:
                    for k in range(i, end):
                        keys[k] = np.inf
                    return
        else:
            here = prefix[p] * width + digit[p]
            if ((not masked or reach[level[p] + here] != 0)
                    and digit[p] >= bottom[p] and not shut[p] >> digit[p] & 1):
                _step_position(partial, p, placed, held, alphabet[digit[p]], copies, blacks,
                               commons)
                p += 1
                prefix[p], digit[p] = here, 0
                reached = True
                continue
            size = width ** (length - 1 - p)  # no guess to score below: passed over
            for k in range(i, i + size):
                keys[k] = np.inf
            i += size
            digit[p] += 1
            if digit[p] < width:
                continue
        while True:  # turn the odometer: up to the first position with a digit left
            digit[p] = 0
            p -= 1
            if p < low:
                return
            copies[alphabet[digit[p]]] -= 1
            digit[p] += 1
            if digit[p] < width:
                break


@njit(cache=True, nogil=True, inline="always")
def _beyond_reach(kind: int, partial: np.ndarray, p: int, shift: int, rows: np.ndarray,
                  bar: float) -> bool:
    """Whether no guess that ends a prefix of ``p`` positions, whose raw answers are
    ``partial[p]``, can have a key of minimax, expected or most parts below ``bar``: its last
    symbol adds at most a peg of each kind, so each class of the prefix splits into at most
    2 ** ``shift``, and classes of different prefixes only merge, which no key gains by; the key
    of such splits, each class even (most parts: each class of m in min(m, 2 ** ``shift``)), is
    a floor, grown secret by secret. ``rows[0]``: zero, and left so."""
    floor = np.int64(0)
    parts = np.int64(1) << shift
    for j in range(partial.shape[1]):
        size = rows[0, partial[p, j]]  # the class's secrets before this one
        rows[0, partial[p, j]] = size + 1
        if kind == 1:
            floor = max(floor, (size >> shift) + 1)
        elif kind == 2:
            floor += 2 * (size >> shift) + 1
        elif size < parts:
            floor -= 1
    for j in range(partial.shape[1]):
        rows[0, partial[p, j]] = 0
    return bool(floor >= bar)


@njit(cache=True, nogil=True, inline="always")
def _step_position(partial: np.ndarray, p: int, placed: np.ndarray, held: np.ndarray, x: int,
                   copies: np.ndarray, blacks: np.uint8, commons: np.uint8) -> None:
    """The raw answers of the guess's first p + 1 positions from its first p, symbol ``x`` at p."""
    copies[x] += 1
    wanted = copies[x]
    for j in range(placed.shape[1]):
        partial[p + 1, j] = (partial[p, j] + blacks * (placed[p, j] == x)
                             + commons * (held[x, j] >= wanted))


#: Secrets counted between looks at whether four guesses can still be kept.
_WALK_PIECE = 8


@njit(cache=True, nogil=True, inline="always")
def _counted(kind: int, key: int, size: int) -> int:
    """:func:`_grown` of a whole-number key: one integer step, where a float's would wait on
    the last."""
    if kind == 1:
        return max(key, size)
    if kind == 2:
        return key + 2 * size - 1
    return key - (size == 1)


@njit(cache=True, nogil=True, inline="always")
def _step(before: np.ndarray, after: np.ndarray, column: np.ndarray, holds: np.ndarray, x: int,
          copies: np.uint8, blacks: np.uint8, commons: np.uint8) -> None:
    """One more position of the guess, symbol ``x`` (its ``copies``-th copy): a black peg where
    the secret has x there, a common peg where it holds at least that many x."""
    for j in range(len(before)):
        after[j] = before[j] + blacks * (column[j] == x) + commons * (holds[j] >= copies)


# A heuristic's subtree of a small set, played whole from the score table (see scoring.TableScorer.walk).

#: Guesses tallied together by :func:`walk_table`: their class counts stay in the first-level
#: cache while the secrets' rows stream past.
_WALK_BLOCK = 128
#: Entropy's keys within this much of the best (relative, at least 1) are compared exactly.
_NEAR = 1e-9


@njit(cache=True, nogil=True)
def walk_table(by_secret: np.ndarray, row_of: np.ndarray, kind: int, consistent: bool, nfb: int,
               solved: int, cands: np.ndarray, level: int, depths: np.ndarray, steps: np.ndarray,
               codes: np.ndarray, guessed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The tree a heuristic of ``kind`` (minimax 1, expected 2, parts 3, entropy 4) makes of
    ``cands`` (ascending), every state asked once, depth first, answers in index order: each
    node's guess, the answer that leads to it (-1 at the top) and its level (``level`` at the
    top), in that order; the level at which each secret is solved goes into ``depths``.
    ``by_secret[row_of[s], g]`` is the answer of secret ``s`` to guess ``g`` (the rows of the
    whole table, or of ``cands`` only, see :class:`treegen.rules.scoring.WordScorer`);
    ``steps[c]``, entropy's
    step of s ln s from c to c + 1 (at least ``len(cands)`` of them).

    A guess is chosen as :meth:`treegen.strategies.heuristics.Heuristic.choose` chooses it: by
    the least key, then a possible secret, then enumeration order, over every guess
    (``consistent``: the possible secrets only), as :func:`_walk_choice` finds it. Scoring every
    guess rather than one of each class of equivalent guesses gives the same choice: equivalent
    guesses share their key and are all possible or none, and a class's first is its least.
    Those classes are used where they are cheap to find: ``codes`` (each guess's symbols; empty
    in a game without symmetries) and ``guessed`` (the symbols the guesses above ``cands`` used,
    a bit mask) give each state's classes of guesses that differ only by interchangeable symbols
    (see :func:`_first_of_classes`), and only their first is scored. A state's classes keep the
    order of its secrets, so every set stays ascending."""
    n0 = len(cands)
    buf = np.empty(n0 * (n0 + 1) + 1, dtype=np.int64)  # each level's sets hold n0 secrets at most
    buf[:n0] = cands
    used = n0
    most = 2 * n0 + 2  # every state splits its set: at most 2 n0 of them
    # start, end, level, answer that leads there, symbols the guesses above used
    frames = np.empty((most, 5), dtype=np.int64)
    frames[0, 0], frames[0, 1], frames[0, 2], frames[0, 3], frames[0, 4] = 0, n0, level, -1, guessed
    top = 1
    guesses = np.empty(most, dtype=np.int64)
    answers = np.empty(most, dtype=np.int64)
    levels = np.empty(most, dtype=np.int64)
    nodes = 0
    tally = np.zeros(nfb, dtype=np.int64)
    begin = np.empty(nfb, dtype=np.int64)
    fill = np.empty(nfb, dtype=np.int64)
    block = np.zeros((_WALK_BLOCK, nfb), dtype=np.int32)
    keys = np.zeros(_WALK_BLOCK, dtype=np.float64)
    near = np.empty(by_secret.shape[1] + n0, dtype=np.int64)  # a possible secret may come twice
    factor = _least_factors(n0)
    powers = np.zeros(n0 + 1, dtype=np.int64)
    guesses_count = by_secret.shape[1]
    pool = np.empty(guesses_count, dtype=np.int64)
    nsym = 0
    for g in range(codes.shape[0]):
        for p in range(codes.shape[1]):
            nsym = max(nsym, int(codes[g, p]) + 1)
    # the symbols' bit masks hold 62 of them
    reduced = codes.shape[0] == guesses_count and not consistent and nsym <= 62
    while top > 0:
        top -= 1
        start, end = frames[top, 0], frames[top, 1]
        here, answer, above = frames[top, 2], frames[top, 3], frames[top, 4]
        group = buf[start:end]
        if end - start <= 2:  # the first: it solves itself and leaves the other alone
            guess = group[0]
        else:
            guess = _walk_choice(by_secret, row_of, kind, consistent, nfb, group, tally, block,
                                 keys,
                                 steps, near, factor, powers, pool, codes if reduced else
                                 codes[:0], nsym, above)
        below = above
        if reduced:
            for p in range(codes.shape[1]):
                below |= np.int64(1) << np.int64(codes[guess, p])
        guesses[nodes], answers[nodes], levels[nodes] = guess, answer, here
        nodes += 1
        for s in group:
            tally[by_secret[row_of[s], guess]] += 1
        if tally[solved] > 0:
            depths[guess] = here
        at = used
        for f in range(nfb):
            begin[f] = at
            fill[f] = at
            if f != solved:
                at += tally[f]
        for s in group:
            f = by_secret[row_of[s], guess]
            if f != solved:
                buf[fill[f]] = s
                fill[f] += 1
        for f in range(nfb - 1, -1, -1):  # the first answer on top: it is walked first
            if f != solved and tally[f] > 0:
                frames[top, 0], frames[top, 1] = begin[f], fill[f]
                frames[top, 2], frames[top, 3], frames[top, 4] = here + 1, f, below
                top += 1
            tally[f] = 0
        used = at
    return guesses[:nodes], answers[:nodes], levels[:nodes]


@njit(cache=True, nogil=True)
def _walk_choice(by_secret: np.ndarray, row_of: np.ndarray, kind: int, consistent: bool, nfb: int,
                 group: np.ndarray, tally: np.ndarray, block: np.ndarray, keys: np.ndarray,
                 steps: np.ndarray, near: np.ndarray, factor: np.ndarray, powers: np.ndarray,
                 pool: np.ndarray, codes: np.ndarray, nsym: int, above: int) -> int:
    """The guess of :func:`walk_table` for ``group``: the first of the possible secrets of the
    least key; then, unless ``consistent`` or no guess can beat it (its answers as even as can
    be), the first of the guesses of the pool (ascending) whose key is less still, tallied a
    block of guesses at a time along the secrets' rows (guess by guess, each dropped once its
    key passed the best, took longer: the rows were read across, not along). The pool is every
    guess, or with ``codes`` (empty: none) the first of each class of guesses
    (:func:`_first_of_classes`, the symbols of ``above`` used before), found only when the scan
    is needed: a possible secret often splits a small set as evenly as can be, and finding the
    classes costs about what scoring every guess does. Entropy's keys, sums of s ln s, keep every
    guess near the best (``near``) for :func:`_exact_entropy`. ``tally``, ``block``, ``powers``:
    zero, and left so."""
    n = len(group)
    even, extra = n // nfb, n % nfb
    if kind == 1:
        least = float(even + (extra > 0))
    elif kind == 2:
        least = float((nfb - extra) * even * even + extra * (even + 1) * (even + 1))
    elif kind == 3:
        least = -float(min(n, nfb))
    else:  # entropy: only a guess that sets every secret apart has 0 (each class adds 2 ln 2 or more)
        least = 0.0 if n <= nfb else -np.inf
    best, chosen, count = np.inf, group[0], 0
    for g in group:
        key = 0.0
        for s in group:
            f = by_secret[row_of[s], g]
            size = tally[f] + 1
            tally[f] = size
            key = _grown(kind, key, size, steps[size - 1])
        for s in group:
            tally[by_secret[row_of[s], g]] = 0
        if kind == 4:
            count = _keep_near(near, count, g, key, best)
        if key < best:
            best, chosen = key, g
    if not consistent and best > least:
        guesses = _first_of_classes(codes, nsym, above, group, pool) if len(codes) else -1
        if guesses < 0:
            guesses = by_secret.shape[1]
            for g in range(guesses):
                pool[g] = g
        every = guesses == by_secret.shape[1]  # read along the rows, not through the pool
        for lo in range(0, guesses, _WALK_BLOCK):  # a possible secret wins ties: only less counts
            m = min(_WALK_BLOCK, guesses - lo)
            these = pool[lo:lo + m]
            keys[:m] = 0.0
            for s in group:
                row = by_secret[row_of[s], lo:lo + m] if every else by_secret[row_of[s]]
                for i in range(m):
                    f = row[i] if every else row[these[i]]
                    size = block[i, f] + 1
                    block[i, f] = size
                    keys[i] = _grown(kind, keys[i], size, steps[size - 1])
            for s in group:
                row = by_secret[row_of[s], lo:lo + m] if every else by_secret[row_of[s]]
                for i in range(m):
                    block[i, row[i] if every else row[these[i]]] = 0
            for i in range(m):
                if kind == 4 and keys[i] <= best + _NEAR * max(1.0, abs(best)):
                    count = _keep_near(near, count, these[i], keys[i], best)
                if keys[i] < best:
                    best, chosen = keys[i], these[i]
            if best <= least:
                break
    if kind == 4 and count > 1:
        chosen = _exact_entropy(by_secret, row_of, group, near[:count], chosen, tally, factor,
                                powers)
    return int(chosen)


@njit(cache=True, nogil=True)
def _first_of_classes(codes: np.ndarray, nsym: int, guessed: int, group: np.ndarray,
                      pool: np.ndarray) -> int:
    """Into ``pool``, the guesses first in their class of guesses equivalent on ``group``, the
    symbols of ``guessed`` (a bit mask) used above (see :func:`first_of_classes`)."""
    used = np.zeros(nsym, dtype=np.bool_)
    present = np.zeros(nsym, dtype=np.bool_)
    for k in range(nsym):
        used[k] = guessed >> np.int64(k) & 1
    for s in group:
        for p in range(codes.shape[1]):
            present[codes[s, p]] = True
    return first_of_classes(codes, used, present, pool)


@njit(cache=True, nogil=True, inline="always")
def _grown(kind: int, key: float, size: int, step: float) -> float:
    """A key once one of its classes has grown to ``size``: minimax, the largest class; expected,
    the sum of the squares; parts, less the number of classes; entropy, the sum of s ln s, by
    ``step`` (from size - 1). No array is passed: an inlined array costs an atomic count of
    references a call, more than the step itself."""
    if kind == 1:
        return max(key, float(size))
    if kind == 2:
        return key + 2.0 * size - 1.0
    if kind == 3:
        return key - (size == 1)
    return key + step


@njit(cache=True, nogil=True, inline="always")
def _keep_near(near: np.ndarray, count: int, g: int, key: float, best: float) -> int:
    """``g`` kept among the guesses near the best (the whole list is checked again at the end:
    ``best`` only falls)."""
    if key <= best + _NEAR * max(1.0, abs(best)) or count == 0:
        near[count] = g
        count += 1
    return count


@njit(cache=True, nogil=True)
def _exact_entropy(by_secret: np.ndarray, row_of: np.ndarray, group: np.ndarray, near: np.ndarray,
                   fallback: int, tally: np.ndarray, factor: np.ndarray, powers: np.ndarray) -> int:
    """Among the guesses ``near`` (in scan order: the possible secrets, then every guess in
    enumeration order) those whose product of s^s over their classes is the least, exactly (as
    :meth:`treegen.strategies.heuristics.Entropy.tied` settles it on whole numbers); of them,
    the first possible secret, else the first. Products are compared as their exponents of each
    prime (``factor``: a number's least prime factor), the order of unequal ones by their sums of
    s ln s. ``tally``, ``powers``: zero, and left so."""
    count = len(near)
    values = np.empty(count, dtype=np.float64)
    mine = np.empty(len(group), dtype=by_secret.dtype)
    theirs = np.empty(len(group), dtype=by_secret.dtype)
    for k in range(count):
        values[k] = _powers(_column(by_secret, row_of, group, near[k], mine), 0, tally, factor, powers)
    least = values.min()
    best = -1
    for k in range(count):  # the least sum whose product no other near one's is below
        if values[k] == least:
            best = k
            break
    chosen = -1
    first_possible = -1
    for k in range(count):
        if values[k] > least + _NEAR * max(1.0, abs(least)):
            continue
        if k != best and not _same(_column(by_secret, row_of, group, near[best], mine),
                                   _column(by_secret, row_of, group, near[k], theirs), tally, factor,
                                   powers):
            continue
        g = near[k]
        possible = False
        for s in group:
            if s == g:
                possible = True
                break
        if possible and (first_possible < 0 or g < first_possible):
            first_possible = g
        if chosen < 0 or g < chosen:
            chosen = g
    if first_possible >= 0:
        return first_possible
    return chosen if chosen >= 0 else fallback


@njit(cache=True, nogil=True)
def _column(by_secret: np.ndarray, row_of: np.ndarray, group: np.ndarray, g: int,
            out: np.ndarray) -> np.ndarray:
    """The answers of ``group`` to guess ``g``, into the start of ``out``."""
    for j in range(len(group)):
        out[j] = by_secret[row_of[group[j]], g]
    return out[:len(group)]


@njit(cache=True, nogil=True)
def _powers(answers: np.ndarray, sign: int, row: np.ndarray, factor: np.ndarray,
            powers: np.ndarray) -> float:
    """Each prime's exponent in the product of s^s over the classes of ``answers``, added to
    ``powers`` with ``sign`` (``factor``: each number's least prime factor); the sum of s ln s,
    class by class. ``row``: zero, and left so."""
    for f in answers:
        row[f] += 1
    total = 0.0
    for f in answers:
        size = row[f]
        if size > 0:
            total += size * np.log(size)
            rest = size
            while rest > 1:
                p = factor[rest]
                powers[p] += sign * size
                rest //= p
            row[f] = 0
    return total


@njit(cache=True, nogil=True)
def _same(a: np.ndarray, b: np.ndarray, row: np.ndarray, factor: np.ndarray,
          powers: np.ndarray) -> bool:
    """Whether the classes of answers ``a`` and ``b`` have the same product of s^s: the same
    exponent of every prime. ``row``, ``powers``: zero, and left so."""
    _powers(a, 1, row, factor, powers)
    _powers(b, -1, row, factor, powers)
    same = True
    for p in range(len(powers)):
        if powers[p] != 0:
            same = False
            powers[p] = 0
    return same


@njit(cache=True, nogil=True)
def _least_factors(most: int) -> np.ndarray:
    """Each number's least prime factor, up to ``most``."""
    factor = np.zeros(most + 1, dtype=np.int64)
    for k in range(2, most + 1):
        if factor[k] == 0:
            for j in range(k, most + 1, k):
                if factor[j] == 0:
                    factor[j] = k
    return factor
