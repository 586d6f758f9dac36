"""Exact symmetry reduction of the guess pool.

A permutation of positions together with a permutation of symbols maps codes to codes and preserves
every feedback. If it also fixes each earlier guess, it maps the still-possible secrets onto
themselves, so a guess and its image split them into classes of exactly the same sizes, feedback by
feedback. Only one guess per class (its first code in enumeration order) needs scoring; since every
member shares its score and whether it is a candidate, the tie-break picks the same code as a full
scan would.

Symbols absent from the history are interchangeable, so rather than enumerate their permutations the
first image of a code is found by renaming them in order of first appearance.

Symbols no candidate holds are interchangeable too, and more: each of them may be replaced by
the first of them (:func:`guess_alphabet`).

Only games that are :attr:`~treegen.rules.game.Game.has_symmetries` have such maps; in the others
(listed words, Wordle's tiles) every guess is a class of its own.
"""

from __future__ import annotations

import itertools
from collections import OrderedDict
from functools import lru_cache

import numpy as np

from treegen.data import History
from treegen.rules.game import Game

#: Work allowed for the symmetries of one history: (maps found) x (codes) stays below this, and
#: so do the steps of the search for them. A game with many positions has too many position
#: permutations to use them all (12 positions: 479 million); any subset of the symmetries is
#: still exact (see :func:`position_maps`), only its reduction is smaller.
WORK = 4_000_000


def position_maps(game: Game, guesses: tuple[int, ...]) -> list[tuple[tuple[int, ...], np.ndarray]]:
    """(position permutation, symbol map) pairs that fix every guess; free symbols map to -1.

    A transformed code is ``c'[p] = sigma[c[perm[p]]]``; fixing guess g means ``sigma[g[perm[p]]] = g[p]``.
    Found by backtracking over positions, in lexicographic order of the permutation (the
    identity first), at most ``WORK / codes`` of them: any set of symmetries gives the same
    choices, since the first of the best guesses is first in its class under every one of them.
    """
    words = [game.codes[g].tolist() for g in guesses]
    length = game.length
    most = max(1, WORK // max(game.size, 1))
    found: list[tuple[tuple[int, ...], np.ndarray]] = []
    perm: list[int] = []
    sigma: dict[int, int] = {}
    image: set[int] = set()
    steps = 0

    def extend(p: int) -> bool:
        """Try every position for place ``p``; False once enough is found or done."""
        nonlocal steps
        if p == length:
            table = np.full(len(game.symbols), -1, dtype=np.int64)
            for src, dst in sigma.items():
                table[src] = dst
            found.append((tuple(perm), table))
            return len(found) < most
        for q in range(length):
            steps += 1
            if steps > WORK // 16:
                return False
            if q in perm:
                continue
            added = []
            ok = True
            for word in words:
                src, dst = word[q], word[p]
                if src not in sigma:
                    if dst in image:
                        ok = False
                        break
                    sigma[src] = dst
                    image.add(dst)
                    added.append(src)
                elif sigma[src] != dst:
                    ok = False
                    break
            if ok:
                perm.append(q)
                going = extend(p + 1)
                perm.pop()
            for src in added:
                image.discard(sigma.pop(src))
            if ok and not going:
                return False
        return True

    extend(0)
    return found


#: The classes of recent histories kept: a build walks its tree depth first, so the histories
#: along its path are asked again and again (children share their guesses); the last
#: :data:`CLASSES_KEPT` always, more within :data:`CLASSES_BYTES`.
CLASSES_KEPT, CLASSES_BYTES = 8, 16 << 20
_kept: OrderedDict[tuple[Game, tuple[int, ...]], np.ndarray | None] = OrderedDict()


def _class_of(game: Game, guesses: tuple[int, ...]) -> np.ndarray | None:
    """For every code, the index of the first code of its class (the class representative);
    None where every code is a class of its own. Recent answers are kept (see
    :data:`CLASSES_KEPT`; those of no symmetry cost nothing)."""
    key = (game, guesses)
    if key in _kept:
        _kept.move_to_end(key)
        return _kept[key]
    found = _classes(game, guesses)
    _kept[key] = found
    while len(_kept) > CLASSES_KEPT and \
            sum(0 if v is None else v.nbytes for v in _kept.values()) > CLASSES_BYTES:
        _kept.popitem(last=False)
    return found


def _classes(game: Game, guesses: tuple[int, ...]) -> np.ndarray | None:
    if not game.has_symmetries:  # lists and tiles: every guess is a class of its own
        return None
    if not guesses:
        return _first_classes(game)
    free = np.ones(len(game.symbols), dtype=bool)
    for g in guesses:
        free[game.codes[g]] = False
    maps = position_maps(game, guesses)
    if len(maps) == 1 and free.sum() <= 1:  # one free symbol has nowhere to go
        return None
    from treegen.rules import native
    best = np.empty(game.size, dtype=np.int64)
    native.load().least_images(
        np.ascontiguousarray(game.codes), np.array([perm for perm, _ in maps], dtype=np.int64),
        np.stack([sigma for _, sigma in maps]).astype(np.int64),
        np.flatnonzero(free).astype(np.int64),
        np.empty(0, dtype=np.int64) if game.repetition else game.rank_table, best)
    narrow: np.ndarray = best.astype(np.int32) if game.guess_count < 1 << 31 else best
    return narrow


def _first_classes(game: Game) -> np.ndarray:
    """The classes before any guess, from the codes' counts alone: every position and every
    symbol are interchangeable, so two codes are equivalent when they count their symbols alike,
    and a class's first code writes its counts largest first (00112 for 2, 2 and 1). Mapping
    every code through the length! position maps instead took minutes at 7 positions."""
    if not game.repetition:  # every code a permutation of the first
        return np.zeros(game.size, dtype=np.int32 if game.size < 1 << 31 else np.int64)
    symbols, length = len(game.symbols), game.length
    counts = np.zeros((game.size, symbols), dtype=np.int8)
    rows = np.arange(game.size)
    for p in range(length):
        counts[rows, game.codes[:, p]] += 1
    counts = -np.sort(-counts, axis=1)  # largest first
    key = counts.astype(np.int64) @ ((length + 1) ** np.arange(symbols, dtype=np.int64))
    patterns, inverse = np.unique(key, return_inverse=True)
    first = np.array([game.rank(np.repeat(np.arange(symbols), _digits(int(k), length + 1,
                                                                       symbols))[None, :])[0]
                      for k in patterns], dtype=np.int64)
    found: np.ndarray = first[inverse].astype(np.int32 if game.size < 1 << 31 else np.int64)
    return found


def _digits(number: int, base: int, count: int) -> list[int]:
    out = []
    for _ in range(count):
        number, digit = divmod(number, base)
        out.append(digit)
    return out


def equivalent_guesses(game: Game, history: History = ()) -> list[np.ndarray]:
    """Classes of equivalent guesses after ``history``: ascending code indices, ordered by first code."""
    first = _class_of(game, _guesses(history))
    if first is None:
        return [np.array([g]) for g in range(game.guess_count)]
    order = np.argsort(first, kind="stable")
    starts = np.flatnonzero(np.r_[True, first[order][1:] != first[order][:-1]])
    return np.split(order, starts[1:])


def representatives(game: Game, history: History = ()) -> np.ndarray:
    """The first code of every class of equivalent guesses, ascending."""
    first = _class_of(game, _guesses(history))
    if first is None:
        return np.arange(game.guess_count)
    return np.flatnonzero(first == np.arange(len(first)))


def stabilizer(game: Game, history: History = ()) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Symmetries that fix every guess of ``history`` and generate (with each other) the classes
    of :func:`equivalent_guesses`: each position map found, its free symbols left in place, and
    the swaps of neighbouring free symbols. A symmetry is (the position each position's symbol
    comes from, each symbol's image); none but the identity for a game without symmetries."""
    if not game.has_symmetries:
        return []
    guesses = _guesses(history)
    free = np.ones(len(game.symbols), dtype=bool)
    for g in guesses:
        free[game.codes[g]] = False
    identity = tuple(range(game.length)), tuple(range(len(game.symbols)))
    found = []
    for perm, sigma in position_maps(game, guesses):
        image = tuple(int(s) if s >= 0 else k for k, s in enumerate(sigma))
        if (tuple(perm), image) != identity:
            found.append((tuple(int(p) for p in perm), image))
    symbols = np.flatnonzero(free)
    for a, b in itertools.pairwise(symbols):
        swap = list(range(len(game.symbols)))
        swap[a], swap[b] = int(b), int(a)
        found.append((identity[0], tuple(swap)))
    return found


def guess_alphabet(game: Game, candidates: np.ndarray) -> np.ndarray | None:
    """The symbols a guess needs (ascending) to split ``candidates`` every way any guess can, in a
    game with repeats whose pool is every code: those the candidates hold, and the first of the
    others. A symbol no candidate holds scores nothing wherever it stands, so a guess holding
    such symbols answers every candidate as the same guess with the first of them in their
    places does, which comes earlier in enumeration order and is as possible (not at all): it
    wins every tie the others would. None where the pool is not every code."""
    if not (game.has_symmetries and game.repetition and not game.listed):
        return None
    held = np.zeros(len(game.symbols), dtype=bool)
    held[game.codes[candidates].ravel()] = True
    absent = np.flatnonzero(~held)
    if len(absent):
        held[absent[0]] = True
    return np.flatnonzero(held)


#: Alphabets whose codes are kept: a walk meets few at a time, and at 7 x 7 each is 6.6 MB.
@lru_cache(maxsize=4)
def _product(alphabet: tuple[int, ...], symbols: int, length: int) -> np.ndarray:
    width = len(alphabet)
    found = np.zeros(width ** length, dtype=np.int64)
    for p in range(length):  # the last position turns fastest
        column = np.repeat(np.tile(np.array(alphabet, dtype=np.int64), width ** p),
                           width ** (length - 1 - p))
        found += column * symbols ** (length - 1 - p)
    found.flags.writeable = False
    return found


def product_codes(game: Game, alphabet: np.ndarray) -> np.ndarray:
    """The enumeration indices of every code over ``alphabet`` (ascending symbol indices), in a
    game with repeats, ascending."""
    return _product(tuple(int(x) for x in alphabet), len(game.symbols), game.length)


def _guesses(history: History) -> tuple[int, ...]:
    return tuple(sorted({g for g, _ in history}))


def symbol_view(game: Game) -> np.ndarray:
    """The guesses as the compiled search sees their symbols, for its reduction by symbols no
    guess used or no candidate holds (see :func:`treegen.search.kernels.free_pool`): the codes
    themselves in a symmetric game; in any other, every guess written with one same symbol, so
    that no two symbols are ever interchangeable and every guess is kept."""
    if game.has_symmetries:
        return np.ascontiguousarray(game.codes)
    return np.zeros((game.guess_count, game.length), dtype=np.uint8)
