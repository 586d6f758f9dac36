"""How answers are scored: the one :class:`Scorer` every build, strategy and session asks.

A scorer answers three questions of one game (the answer of each secret to each guess, each
guess's class sizes of a set of secrets, a heuristic's key of them) from one of two sources,
and :func:`scorer_for` chooses within a memory budget, so the compiler and the strategies never
know which one they hold:

- **the score table** (:func:`score_table`): every guess against every secret, computed once
  with array work (``table[g, s]``, the dense feedback index of :attr:`Game.feedback_texts`),
  kept in a signed disk cache between runs (:mod:`treegen.rules.table_cache`), read by lookups.
  It grows with the square of the game (6 pegs of 7 colours: 78 GB), so past a size it no longer
  fits, or no longer pays for its making;
- **the codes themselves** (:class:`Codes`, :func:`scan`, :func:`scan_alphabet`): compiled
  kernels (:mod:`treegen.rules.score_kernels`) score a guess against the secrets asked about from
  the codes and each code's symbol tally, in memory that grows with the codes.

Each rule of feedback names the kernel branch that scores it (its ``kernel``,
:data:`treegen.player.KERNELS`; a rule of counts reads its answers off a lookup,
:func:`feedback_index`), and the table's scorer of that branch (:data:`SCORERS`); the tests hold
the two to the same answer on every pair.
"""

from __future__ import annotations

import pickle
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any, NamedTuple, Protocol

import numpy as np

from treegen.errors import GameError
from treegen.player import COUNTS, IN_PLACE, KERNELS, TILES
from treegen.rules import native, table_cache
from treegen.rules.game import Game
from treegen.rules.symmetry import product_codes
from treegen.settings import available_memory, human_size

__all__ = ["KINDS", "SCORERS", "CodeScorer", "Codes", "Keyed", "Scorer", "TableScorer",
           "WordScorer", "against_guesses", "block", "describe", "feedback_index", "guess_table",
           "partition_counts", "scan", "scan_alphabet", "score_table", "scorer_for",
           "secret_major", "threads_for", "uses_table", "word_layout", "words_of", "xlogx"]

_CHUNK_BYTES = 1 << 25


# The score table ---------------------------------------------------------------------------------

def feedback_index(game: Game) -> np.ndarray:
    """Lookup from ``a * (length + 1) + b`` to the dense feedback index, for a rule of counts
    (``a`` symbols in place, ``b`` others shared): each rule reads its answer off the counts
    (:meth:`treegen.player.Rule.counted`); other rules need none (one unused cell)."""
    rule, n = game.feedback_rule, game.length
    if rule.kernel != COUNTS:
        return np.zeros(1, dtype=np.uint8)
    lut = np.full((n + 1) * (n + 1), 255, dtype=np.uint8)
    where = {text: i for i, text in enumerate(game.feedback_texts)}
    for a in range(n + 1):
        for b in range(n + 1 - a):
            lut[a * (n + 1) + b] = where[rule.counted(a, b, n)]
    return lut


@lru_cache(maxsize=4)
def score_table(game: Game) -> np.ndarray:
    """The (guesses, secrets) uint8 table of feedback indices; large ones are cached on disk between
    runs.

    The cache only saves time: a file that is missing or fails its checksum is recomputed and replaced
    (see :mod:`treegen.rules.table_cache`). A table made from two words a code
    (:func:`word_layout`) is made sooner than a file gives it back, so it is never cached.
    """
    if game.hard:  # hard mode restricts guesses, not how they score
        return score_table(replace(game, hard=""))
    game.check_fits()
    cached = word_layout(game) is None
    table = table_cache.load(game, len(game.feedback_texts)) if cached else None
    if table is None:
        table = compute_table(game)
        if cached:
            table_cache.store(game, table)
    return table


def compute_table(game: Game) -> np.ndarray:
    """The (guesses, secrets) uint8 table of feedback indices under the game's rule."""
    secrets = game.codes[:game.size]  # the first guesses are the secrets
    return SCORERS[game.feedback_rule.kernel](game, game.codes, secrets)


def against_guesses(game: Game, rows: np.ndarray) -> np.ndarray:
    """The feedback indices of the guesses ``rows`` against every guess taken as a secret (what
    hard mode asks: which guesses are still consistent), one row each."""
    if game.symmetric_scores:  # every guess is a secret: the table has the rows already
        rows_of_table: np.ndarray = score_table(game)[rows]
        return rows_of_table
    return SCORERS[game.feedback_rule.kernel](game, game.codes[rows], game.codes)


@lru_cache(maxsize=2)
def guess_table(game: Game) -> np.ndarray:
    """Every guess against every guess taken as a secret, the secrets first (so its first
    ``size`` columns are the score table): what hard mode's exact search splits the allowed
    guesses by. Large ones are kept in the disk cache, like the score table."""
    if game.hard:  # as for the score table: the rule, not the mode
        return guess_table(replace(game, hard=""))
    if game.symmetric_scores:
        return score_table(game)
    game.check_fits()
    cached = word_layout(game) is None
    table = table_cache.load(game, len(game.feedback_texts), game.guess_count) if cached else None
    if table is None:
        table = against_guesses(game, np.arange(game.guess_count))
        if cached:
            table_cache.store(game, table)
    return table


#: The most positions, symbols and bits of (symbol, count) of the two words a code is made of
#: for :func:`word_table`: a byte a position, and a word of bits.
WORD_POSITIONS, WORD_SYMBOLS, WORD_BITS = 8, 254, 64


@lru_cache(maxsize=8)
def word_layout(game: Game) -> int | None:
    """How many times over each symbol's count is kept in a code's bits, where the game's tables
    are made from two words a code (:func:`word_table`); None where they are not: a rule other
    than pegs whose answers are the triangle of (a, b) and black pegs, more than
    :data:`WORD_POSITIONS` positions or :data:`WORD_SYMBOLS` symbols, or more bits of (symbol,
    count) than a word holds."""
    kernel, n, symbols = game.feedback_rule.kernel, game.length, len(game.symbols)
    if kernel not in (COUNTS, IN_PLACE) or n > WORD_POSITIONS or symbols > WORD_SYMBOLS:
        return None
    if kernel == IN_PLACE:
        return 0
    most = int(tally_of(game.codes, symbols).max(initial=1))
    if symbols * most > WORD_BITS:
        return None
    lut = feedback_index(game)
    triangle = all(int(lut[a * (n + 1) + b]) == a * (n + 1) - a * (a - 1) // 2 + b
                   for a in range(n + 1) for b in range(n + 1 - a))
    return most if triangle else None


def words_of(codes: np.ndarray, symbols: int, most: int) -> tuple[np.ndarray, np.ndarray]:
    """Each code as two words: its symbols (each plus one) a byte a position, the first lowest,
    and a bit for each symbol it holds t times or more (bit ``symbol * most + t - 1``), for t up
    to ``most`` (none for 0)."""
    places = np.zeros(len(codes), dtype=np.uint64)
    for p in range(codes.shape[1]):
        places |= (codes[:, p].astype(np.uint64) + np.uint64(1)) << np.uint64(8 * p)
    held = np.zeros(len(codes), dtype=np.uint64)
    if most:
        tally = tally_of(codes, symbols)
        for t in range(1, most + 1):
            for k in range(symbols):
                held |= (tally[:, k] >= t).astype(np.uint64) << np.uint64(k * most + t - 1)
    return places, held


def word_table(game: Game, guesses: np.ndarray, secrets: np.ndarray) -> np.ndarray | None:
    """The (guesses, secrets) table from two words a code, where :func:`word_layout` says so."""
    most = word_layout(game)
    if most is None:
        return None
    symbols = len(game.symbols)
    guess_places, guess_held = words_of(guesses, symbols, most)
    places, held = (guess_places, guess_held) if guesses is secrets or np.array_equal(
        guesses, secrets) else words_of(secrets, symbols, most)
    out = np.empty((len(guesses), len(secrets)), dtype=np.uint8)
    table: np.ndarray = native.load().word_table(
        game.feedback_rule.kernel, game.length, guess_places, guess_held, places, held, out)
    return table


def black_table(game: Game, guesses: np.ndarray, secrets: np.ndarray) -> np.ndarray:
    """Symbols in place: from two words a code, else counted by chunks of guesses."""
    words = word_table(game, guesses, secrets)
    if words is not None:
        return words
    table = np.empty((len(guesses), len(secrets)), dtype=np.uint8)
    step = max(1, _CHUNK_BYTES // max(len(secrets) * guesses.shape[1], 1))
    for lo in range(0, len(guesses), step):
        table[lo:lo + step] = (guesses[lo:lo + step, None, :] == secrets[None, :, :]).sum(
            axis=2, dtype=np.uint8)
    return table


def tile_table(game: Game, guesses: np.ndarray, secrets: np.ndarray) -> np.ndarray:
    """Wordle's tiles as base-3 numbers (grey 0, yellow 1, green 2; the first position most
    significant): the rule's compiled kernel from the codes (:func:`block`),
    whose table is then kept in the cache (see :mod:`treegen.rules.table_cache`)."""
    both = Codes.of(TILES, np.concatenate([guesses, secrets]),
                                np.zeros(1, dtype=np.uint8), len(game.feedback_texts))
    table: np.ndarray = block(
        both, np.arange(len(guesses), dtype=np.int64),
        np.arange(len(guesses), len(both.codes), dtype=np.int64))
    return table


def peg_table(game: Game, guesses: np.ndarray, secrets: np.ndarray) -> np.ndarray:
    """The (guesses, secrets) uint8 table of pegs feedback indices: from two words a code where
    :func:`word_layout` says so, else as one small-integer matrix product.

    ``a * length + common`` is bilinear in indicator vectors: ``a`` counts equal (position, symbol)
    pairs, and ``common = sum_k min(count_g[k], count_s[k])
    = sum_k sum_t [count_g[k] >= t][count_s[k] >= t]``.
    So ``X @ Y.T`` with 0/1 float32 features gives it exactly, at BLAS speed; a lookup makes it dense.
    """
    s, n = len(game.symbols), game.length
    most = n if game.repetition else 1

    def features(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        codes = codes.astype(np.intp)  # p * s + symbol passes 255 in long words of many symbols
        rows = np.arange(len(codes))
        placed = np.zeros((len(codes), n * s), dtype=np.float32)
        tally = np.zeros((len(codes), s), dtype=np.int64)
        for p in range(n):
            placed[rows, p * s + codes[:, p]] = 1
            tally[rows, codes[:, p]] += 1
        atleast = np.concatenate([(tally >= t).astype(np.float32) for t in range(1, most + 1)],
                                 axis=1)
        return placed, atleast

    words = word_table(game, guesses, secrets)
    if words is not None:
        return words
    placed, atleast = features(guesses)
    left = np.concatenate([placed * n, atleast], axis=1)
    if not np.array_equal(secrets, guesses):  # the same codes share their features
        placed, atleast = features(secrets)
    right = np.concatenate([placed, atleast], axis=1)
    lut = feedback_index(game)
    table = np.empty((len(guesses), len(secrets)), dtype=np.uint8)
    step = max(1, _CHUNK_BYTES // (4 * max(len(secrets), 1)))
    for lo in range(0, len(guesses), step):
        raw = left[lo:lo + step] @ right.T
        table[lo:lo + step] = lut[raw.astype(np.uint16)]
    return table


#: The scorer of whole tables of each compiled scorer's branch (a rule's ``kernel``, see
#: :data:`treegen.player.RULES`): guesses by rows, secrets by columns, an index of
#: :attr:`Game.feedback_texts` each.
SCORERS: dict[int, Callable[[Game, np.ndarray, np.ndarray], np.ndarray]] = {
    COUNTS: peg_table, IN_PLACE: black_table, TILES: tile_table}


def secret_major(game: Game, table: np.ndarray) -> np.ndarray:
    """The table read by secrets (``[s, g]``): the compiled bounds tally a guess's classes along
    a secret's row. Pegs and black pegs score both ways alike, so the table of a game that
    enumerates its codes is its own; any other's is a transposed copy."""
    if game.symmetric_scores:
        return table
    return np.ascontiguousarray(table.T)


def partition_counts(table: np.ndarray, guesses: np.ndarray | None, candidates: np.ndarray,
                     nfeedback: int, *, symmetric_scores: bool) -> np.ndarray:
    """Class sizes of ``candidates`` under each guess: an (len(guesses), nfeedback) int array.

    ``guesses=None`` means every guess. Where scores are symmetric (:attr:`Game.symmetric_scores`)
    the table is read by the candidates' rows, else by the guesses' (``table[g, s]``): a square
    table is not enough, since a word game whose guesses are its answers is square and Wordle's
    tiles are not symmetric. Counted in compiled code (:func:`treegen.rules.score_kernels.
    table_counts`): numpy's gather and bincount took ten times as long a pair.
    """
    if table.ndim != 2 or table.dtype != np.uint8:
        raise GameError(f"a score table is a 2-d array of uint8, not {table.ndim}-d {table.dtype}")
    guess_side, secret_side = (1, 0) if symmetric_scores else (0, 1)
    chosen = np.arange(table.shape[guess_side]) if guesses is None else _indices(guesses)
    secrets = _indices(candidates)
    for name, values, side in (("guess", chosen, guess_side), ("secret", secrets, secret_side)):
        if len(values) and (int(values.min()) < 0 or int(values.max()) >= table.shape[side]):
            raise GameError(f"a {name} index is outside the score table's {table.shape[side]}")
    out = np.zeros((len(chosen), nfeedback), dtype=np.int64)
    if not native.load().table_counts(np.ascontiguousarray(table), symmetric_scores, chosen,
                                      secrets, out):
        raise GameError(f"the score table holds an answer past the game's {nfeedback}")
    return out


# Scoring from the codes, compiled --------------------------------------------------------------

def branch(rule: object) -> int:
    """A compiled scorer's branch, checked: the kernels take any other number for tiles."""
    if type(rule) is not int or rule not in KERNELS:
        raise GameError(f"no compiled scorer has the branch {rule!r} (there are {KERNELS})")
    return rule


class Codes(NamedTuple):
    """What the kernels read of one game and never change, as one value (like the search's
    :class:`treegen.search.context.Context`): passed one by one, they made calls of seventeen
    positional arguments in which two tables of the same type could swap unnoticed. The
    kernels themselves keep their arguments (their compiled modules are keyed by their source);
    the value is unpacked here, in Python."""

    #: The rule's branch of the kernels (:func:`branch`).
    rule: int
    #: Every code as symbol indices, and how often each symbol occurs in each (:func:`tally_of`).
    codes: np.ndarray
    tally: np.ndarray
    #: A rule of counts' answer index of each raw answer (unused by tiles).
    lut: np.ndarray
    #: How many answers the rule has.
    nfb: int
    #: Whether each count of symbols in place and in common is an answer of its own (pegs, black
    #: pegs; not Jotto's, which adds them): only then do the counts themselves class the secrets
    #: as the answers do, as the walks over an alphabet count them (:func:`scan_alphabet`).
    apart: bool

    @classmethod
    def of(cls, rule: int, codes: np.ndarray, lut: np.ndarray, nfb: int,
           symbols: int | None = None) -> Codes:
        """The value with the layout the kernels are compiled for, its branch checked and the
        tally of ``symbols`` symbols (None: as many as the codes use) counted here."""
        codes = np.ascontiguousarray(codes, dtype=np.uint8)
        count = int(codes.max(initial=0)) + 1 if symbols is None else symbols
        kernel = branch(rule)
        length = codes.shape[1]
        cells = [a * (length + 1) + b for a in range(length + 1) for b in range(length + 1 - a)]
        apart = kernel == IN_PLACE or (kernel == COUNTS and len(lut) == (length + 1) ** 2
                                       and len({int(lut[c]) for c in cells}) == len(cells))
        return cls(kernel, codes, tally_of(codes, count),
                   np.ascontiguousarray(lut, dtype=np.uint8), int(nfb), apart)


#: What a scan of guesses returns for each: its class sizes, or a heuristic's key of them.
KINDS = {"counts": 0, "minimax": 1, "expected": 2, "parts": 3, "entropy": 4}
#: The kinds whose subtrees a scorer can walk whole (:meth:`Scorer.walk`): every heuristic's.
WALKED = (KINDS["minimax"], KINDS["expected"], KINDS["parts"], KINDS["entropy"])
#: A set of this many secrets or fewer is walked whole from the codes (:meth:`CodeScorer.walk`);
#: above it Python asks the heuristic, which may score one guess of each class the history's
#: symmetries make: deep in the tree few symmetries are left, and what they save no longer pays
#: for a state asked from Python (5 x 7 and 6 x 6 builds, 40 against 150 and 200).
CODES_WALKED_UP_TO = 150


def scan(game: Codes, kind: int, guesses: np.ndarray, secrets: np.ndarray, steps: np.ndarray,
         best_only: bool = False, threads: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Each of ``game``'s guesses' class sizes of ``secrets`` (``kind`` "counts": (guesses, nfb)), or only
    its key under a heuristic (:data:`KINDS`, lower is better; entropy's sum of s ln s, by the
    ``steps`` from s to s + 1), so that no row of sizes is kept. Guesses are shared among
    ``threads`` of numba's (None: every core) where there is enough work to pay for starting
    them (see :func:`shared`).

    ``best_only``: only the keys that may tie with the best must be exact. Minimax's and
    expected's keys only grow as secrets are added, so a guess is dropped (key infinite) as soon
    as its key so far passes the best found. The guesses that are possible secrets (they win
    ties) are scored first, or else a few spread over the pool;
    when the best of the possible secrets already reaches the least key any guess can have (all
    answers as even as can be), no other guess is scored; else the scan of a run of guesses
    ends at the first that reaches it (the later ones, in enumeration order, would lose the
    tie). Most parts and entropy end their runs so too (a guess that splits every secret apart,
    or makes as many classes as there are answers), but drop no guess: entropy's key grows too,
    but late, and dropping saved it nothing (benchmarks/heuristic_keys.py)."""
    rule, codes, tally, lut, nfb, _ = game
    rows = len(guesses) if kind == KINDS["counts"] else 0
    sizes = np.zeros((rows, nfb), dtype=np.int64)
    keys = np.zeros(len(guesses), dtype=np.float64)
    kernels = native.load()
    placed, held = kernels.lay_out(codes, tally, secrets)
    bound, least = -1.0, -np.inf  # no guess is dropped; the scan does not stop
    if best_only and kind != KINDS["counts"]:
        least = least_key(kind, len(secrets), nfb)
    if least > -np.inf:
        lead = np.flatnonzero(np.isin(guesses, secrets, kind="table"))
        first = lead if len(lead) else _spread(len(guesses))
        found = np.zeros(len(first), dtype=np.float64)
        kernels.scan_serial(rule, kind, codes, tally, lut, guesses[first], secrets, placed, held,
                            nfb, steps, sizes, found, np.inf, -np.inf)
        if first is lead and found.min() <= least:
            keys[:] = np.inf
            keys[first] = found
            return sizes, keys
        bound = float(found.min()) if kind in GROWING else -1.0
    threaded = shared(len(guesses) * len(secrets), threads)
    (threaded.scan if threaded else kernels.scan_serial)(
        rule, kind, codes, tally, lut, guesses, secrets, placed, held, nfb, steps, sizes, keys,
        bound, least)
    return sizes, keys


def shared(pairs: int, threads: int | None) -> Any:
    """numba's threaded kernels, set to ``threads`` threads (None: every core), where ``pairs``
    of (guess, secret) pay for starting them and more than one thread is there; else None (the
    kernels of :func:`native.load`, with no numba where they were compiled ahead of time)."""
    if pairs < PARALLEL_FROM or threads == 1:
        return None
    found = native.threaded()
    if threads is not None:
        found.set_threads(max(1, min(threads, found.most)))
    return found if found.threads() > 1 else None


def least_key(kind: int, count: int, nfb: int) -> float:
    """The least key any guess can have on ``count`` secrets (its answers as even as can be),
    where it is a whole number that a guess reaching it gives exactly; -inf where it is not
    (entropy's, but for the split of every secret apart: 0)."""
    even, extra = divmod(count, nfb)
    if kind == 1:
        return float(even + (extra > 0))
    if kind == 2:
        return float((nfb - extra) * even * even + extra * (even + 1) ** 2)
    if kind == 3:
        return -float(min(count, nfb))
    return 0.0 if count <= nfb else -np.inf


#: The heuristics whose guesses are dropped once past the best: minimax and expected.
GROWING = (1, 2)
#: The heuristics whose keys are whole numbers (minimax, expected, most parts): a guess that can
#: only tie with one before it loses to it, so a walk keeps only the codes that beat all before.
WHOLE_KEYS = (1, 2, 3)
#: Guesses scored whole first, spread over the pool, for a first best to drop others by.
_SAMPLE = 32
#: Pairs of (guess, secret) from which a scan is shared among threads.
PARALLEL_FROM = 1 << 20


def _spread(count: int) -> np.ndarray:
    """Up to :data:`_SAMPLE` positions spread evenly over ``count``, ascending, each once."""
    spread = np.linspace(0, count - 1, min(_SAMPLE, count)).astype(np.int64)
    return spread[np.r_[True, spread[1:] != spread[:-1]]]


def block(game: Codes, guesses: np.ndarray, secrets: np.ndarray) -> np.ndarray:
    """The answer of each of ``secrets`` to each of ``guesses``: (guesses, secrets) uint8."""
    found: np.ndarray = native.load().block(game.rule, game.codes, game.tally, game.lut, guesses,
                                            secrets)
    return found


def tally_of(codes: np.ndarray, symbols: int) -> np.ndarray:
    """How often each symbol occurs in each code: (codes, symbols) uint8."""
    out = np.zeros((len(codes), symbols), dtype=np.uint8)
    rows = np.arange(len(codes))
    for p in range(codes.shape[1]):
        out[rows, codes[:, p]] += 1  # one symbol of each code a position: no index repeats
    return out


# A heuristic's keys of every code over an alphabet, without a list of the guesses ------------------

def scan_alphabet(game: Codes, kind: int, alphabet: np.ndarray, secrets: np.ndarray,
                  steps: np.ndarray, best: float | None = None,
                  wanted: np.ndarray | None = None, threads: int | None = None) -> np.ndarray:
    """The key of ``secrets`` under ``kind`` (not "counts") of every code of ``game``'s length
    positions over ``alphabet`` (ascending symbols), in enumeration order (the guesses of
    :func:`treegen.rules.symmetry.product_codes`). ``best`` (None: every key exact): only the
    keys that may decide the choice are exact: with the heuristics of whole keys
    (:data:`WHOLE_KEYS`), those of the codes better than ``best`` (infinite: none known) and
    than every code before them (the first code of the least key among them; on threads, every
    code before them in the thread's share), the others infinite; entropy keeps every key;
    and a run of guesses ends at the first whose key is the least any guess can have (of
    ``nfb`` answers, :func:`least_key`). ``wanted`` (one flag a code, None: all): the codes to
    score, one of each class of equivalent guesses; the others' keys are infinite, and a
    prefix with none to score is passed over whole. Rules: pegs and black pegs, up to 15
    positions (a raw answer fits a byte); ``threads`` as for :func:`scan`."""
    rule, codes, tally, _, nfb, apart = game
    if kind == KINDS["counts"] or not apart or codes.shape[1] > 15:
        raise ValueError("scan_alphabet gives the keys of pegs and black pegs only")
    length, width = codes.shape[1], len(alphabet)
    keys = np.empty(width ** length, dtype=np.float64)
    kernels = native.load()
    placed, held = kernels.lay_out(codes, tally, secrets)
    least = least_key(kind, len(secrets), nfb) if best is not None else -np.inf
    blacks = length + 1 if rule == 0 else 1  # raw answers stay apart: below 256
    commons = 1 if rule == 0 else 0
    reach = np.zeros(0, dtype=np.uint8) if wanted is None else _reach(wanted, width, length)
    threaded = shared(len(keys) * len(secrets), threads) if length > 1 and width > 1 else None
    (threaded.walk if threaded else kernels.walk_serial)(
        kind, np.ascontiguousarray(alphabet, dtype=np.uint8), placed, held, blacks, commons, steps,
        keys, np.inf if best is None else best, least, reach)
    return keys


def _reach(wanted: np.ndarray, width: int, length: int) -> np.ndarray:
    """For each prefix of 1 .. ``length`` symbols, level by level, whether a code to score
    (``wanted``, in enumeration order) begins with it: what lets a walk pass over prefixes."""
    flags = np.asarray(wanted, dtype=bool)
    if flags.shape != (width ** length,):
        raise ValueError(f"wanted must flag the {width ** length} codes over the alphabet")
    return np.concatenate([flags.reshape(width ** (p + 1), -1).any(axis=1)
                           for p in range(length)]).astype(np.uint8)


# The scorer a build asks ------------------------------------------------------------------------


class Keyed(Protocol):
    """What a scorer needs of a heuristic: its key of rows of class sizes, and the name of the
    key a scorer may compute itself (see :data:`KINDS`)."""

    fused: str | None

    def keys(self, counts: np.ndarray) -> np.ndarray: ...


#: Up to this many (guess, secret) pairs a table pays for its making: beyond, a build asks about
#: fewer pairs than the table holds (see benchmarks/heuristic_scale.py).
TABLE_PAIRS = 1 << 27


class Scorer(ABC):
    """Answers of secrets to guesses, for one game."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.nfb = len(game.feedback_texts)

    @abstractmethod
    def block(self, guesses: np.ndarray, secrets: np.ndarray) -> np.ndarray:
        """The answer of each secret (columns) to each guess (rows), as feedback indices."""

    @abstractmethod
    def counts(self, guesses: np.ndarray | None, secrets: np.ndarray) -> np.ndarray:
        """How many of ``secrets`` give each answer to each guess (None: every guess):
        (guesses, feedbacks)."""

    def keys(self, heuristic: Keyed, guesses: np.ndarray | None, secrets: np.ndarray,
             best_only: bool = False) -> np.ndarray:
        """A heuristic's key of each guess's classes of ``secrets`` (None: every guess).
        ``best_only``: only the keys that may tie with the best need be exact; a scorer may give
        the others as infinite, having stopped counting (see :func:`scan`)."""
        found: np.ndarray = heuristic.keys(self.counts(guesses, secrets))
        return found

    def alphabet_keys(self, heuristic: Keyed, alphabet: np.ndarray, secrets: np.ndarray,
                      best_only: bool = False, wanted: np.ndarray | None = None
                      ) -> tuple[np.ndarray, np.ndarray]:
        """Every code over ``alphabet`` (a game with repeats, see
        :func:`treegen.rules.symmetry.guess_alphabet`) as guesses, ascending, or those
        ``wanted`` flags (one of each class of equivalent guesses), and their keys as
        :meth:`keys` gives them."""
        guesses = product_codes(self.game, alphabet)
        if wanted is not None:
            guesses = guesses[np.asarray(wanted, dtype=bool)]
        return guesses, self.keys(heuristic, guesses, secrets, best_only)

    def table(self) -> np.ndarray:
        """The whole score table (what strategies of one's own may read)."""
        return score_table(self.game)

    def walk(self, kind: int, consistent: bool, secrets: np.ndarray, level: int,
             depths: np.ndarray, guessed: Sequence[int] = ()
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """The subtree a built-in heuristic of ``kind`` (:data:`KINDS`) makes of ``secrets``
        (ascending), the guesses ``guessed`` made before, played whole in compiled code: each
        node's guess, the answer leading to it (-1 at the top) and its level, depth first,
        answers in index order, the level each secret is solved at written into ``depths``;
        None where this scorer has no such walk (see
        :func:`treegen.rules.score_kernels.walk_table`)."""
        return None

    def alone(self) -> Scorer:
        """This scorer on one thread, for a process whose siblings are the parallelism (a
        build's workers): threads would only start numba's."""
        return self

    def recipe(self) -> tuple[Any, ...]:
        """What makes this scorer again: the arguments of its class, without its arrays (the
        game alone, unless the class takes more)."""
        return (self.game,)

    def __reduce__(self) -> tuple[Any, ...]:
        """Sent to another process as its recipe: that process makes it once (its table may be
        large) and keeps it for the next piece of work of the same game."""
        return remade, (type(self), self.recipe())


def _symbols_used(game: Game, guessed: Sequence[int]) -> int:
    """The symbols the guesses ``guessed`` use, a bit mask for the table's walk, which takes the
    symbols no guess used as interchangeable; -1 (every symbol) where the game's do not fit one."""
    if len(game.symbols) > 62:
        return -1
    used = 0
    for guess in guessed:
        for symbol in game.codes[guess].tolist():
            used |= 1 << symbol
    return used


class TableScorer(Scorer):
    """Lookups in the dense score table."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self._table = score_table(game)
        #: The table read by secrets, for :meth:`walk` (the table itself where scores are symmetric).
        self._by_secret: np.ndarray | None = None
        #: Each secret's row of that table: its own.
        self._rows = np.arange(game.size, dtype=np.int64)

    def block(self, guesses: np.ndarray, secrets: np.ndarray) -> np.ndarray:
        found: np.ndarray = self._table[np.ix_(guesses, secrets)]
        return found

    def counts(self, guesses: np.ndarray | None, secrets: np.ndarray) -> np.ndarray:
        return partition_counts(self._table, guesses, secrets, self.nfb,
                                symmetric_scores=self.game.symmetric_scores)

    def table(self) -> np.ndarray:
        return self._table

    def walk(self, kind: int, consistent: bool, secrets: np.ndarray, level: int,
             depths: np.ndarray, guessed: Sequence[int] = ()
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        if kind not in WALKED:
            return None
        if self._by_secret is None:
            self._by_secret = secret_major(self.game, self._table)
        return _walked(self.game, self._by_secret, self._rows, kind, consistent,
                       _indices(secrets), level, depths, guessed)


def _walked(game: Game, by_secret: np.ndarray, row_of: np.ndarray, kind: int, consistent: bool,
            secrets: np.ndarray, level: int, depths: np.ndarray, guessed: Sequence[int]
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`treegen.rules.score_kernels.walk_table` of ``secrets``, the answer of secret ``s``
    to guess ``g`` being ``by_secret[row_of[s], g]``."""
    # interchangeable symbols are found from the codes, in a game whose symbols have them
    codes = game.codes if game.has_symmetries else game.codes[:0]
    found: tuple[np.ndarray, np.ndarray, np.ndarray] = native.load().walk_table(
        by_secret, row_of, kind, consistent, len(game.feedback_texts), game.solved_index,
        secrets, level, depths, entropy_steps(len(secrets)),
        np.ascontiguousarray(codes, np.uint8), _symbols_used(game, guessed))
    return found


#: Answers :meth:`WordScorer.counts` makes at once: a few MB however many guesses it is asked
#: about (a table's worth at the top of a game with no first guess).
_ANSWERS_AT_ONCE = 1 << 22


class WordScorer(Scorer):
    """Answers made from two words a code (:func:`word_layout`) when they are asked, never the
    whole table: in vector steps, about as soon as a table is read, so a build does without
    making the table (and having the kernel clear its memory), Bulls and Cows' 25 MB and
    Muertos y Heridos' 100 MB. A walked set gets the rows of its own secrets."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        most = word_layout(game)
        if most is None:
            raise GameError(f"game {game.slug} is not scored from two words a code")
        self._places, self._held = words_of(game.codes, len(game.symbols), most)
        #: Where each secret's row is in the rows made for a walk.
        self._rows = np.zeros(game.size, dtype=np.int64)

    def block(self, guesses: np.ndarray, secrets: np.ndarray) -> np.ndarray:
        guesses, secrets = _indices(guesses), _indices(secrets)
        out = np.empty((len(guesses), len(secrets)), dtype=np.uint8)
        table: np.ndarray = native.load().word_table(
            self.game.feedback_rule.kernel, self.game.length, self._places[guesses],
            self._held[guesses], self._places[secrets], self._held[secrets], out)
        return table

    def counts(self, guesses: np.ndarray | None, secrets: np.ndarray) -> np.ndarray:
        every = np.arange(self.game.guess_count) if guesses is None else _indices(guesses)
        secrets = _indices(secrets)
        out = np.zeros((len(every), self.nfb), dtype=np.int64)
        step = max(1, _ANSWERS_AT_ONCE // max(len(secrets), 1))
        kernels = native.load()
        for lo in range(0, len(every), step):
            answers = self.block(every[lo:lo + step], secrets)
            if not kernels.table_counts(answers, False, np.arange(len(answers)),
                                        np.arange(len(secrets)), out[lo:lo + step]):
                raise GameError(f"game {self.game.slug}: an answer past its {self.nfb}")
        return out

    def walk(self, kind: int, consistent: bool, secrets: np.ndarray, level: int,
             depths: np.ndarray, guessed: Sequence[int] = ()
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        if kind not in WALKED:
            return None
        game, secrets = self.game, _indices(secrets)
        # pegs score alike both ways: a secret's row against every guess is its row as a guess
        rows = self.block(secrets, np.arange(game.size))
        self._rows[secrets] = np.arange(len(secrets))
        return _walked(game, rows, self._rows, kind, consistent, secrets, level, depths, guessed)


class CodeScorer(Scorer):
    """Compiled kernels over the codes and their symbol tallies: memory linear in the codes."""

    def __init__(self, game: Game, threads: int | None = None) -> None:
        super().__init__(game)
        self.threads = threads
        #: What the kernels read of the game.
        self.codes = Codes.of(game.feedback_rule.kernel, game.codes, feedback_index(game),
                              self.nfb, len(game.symbols))

    def block(self, guesses: np.ndarray, secrets: np.ndarray) -> np.ndarray:
        return block(self.codes, _indices(guesses), _indices(secrets))

    def alone(self) -> Scorer:
        return self if self.threads == 1 else CodeScorer(self.game, 1)

    def recipe(self) -> tuple[Any, ...]:
        return self.game, self.threads

    def counts(self, guesses: np.ndarray | None, secrets: np.ndarray) -> np.ndarray:
        return self._scan(KINDS["counts"], guesses, secrets)[0]

    def keys(self, heuristic: Keyed, guesses: np.ndarray | None, secrets: np.ndarray,
             best_only: bool = False) -> np.ndarray:
        """A built-in heuristic's keys come from the kernel, one number a guess, no rows kept."""
        kind = KINDS.get(heuristic.fused or "")
        if kind is None:
            return super().keys(heuristic, guesses, secrets)
        return self._scan(kind, guesses, secrets, best_only)[1]

    def alphabet_keys(self, heuristic: Keyed, alphabet: np.ndarray, secrets: np.ndarray,
                      best_only: bool = False, wanted: np.ndarray | None = None
                      ) -> tuple[np.ndarray, np.ndarray]:
        """A built-in heuristic's keys of every code over the alphabet (those not ``wanted``
        infinite) come from a kernel that walks them in order (:func:`scan_alphabet`), with no
        list of them; with ``best_only``, the possible secrets are scored first where a guess
        can be known to be as good as any, as by :func:`scan`, and the keys of
        :data:`WHOLE_KEYS` are exact for them and for the codes better than them and than every
        code before (the others infinite): what decides the choice."""
        kind = KINDS.get(heuristic.fused or "")
        if kind is None or not self.codes.apart or self.game.length > 15:
            return super().alphabet_keys(heuristic, alphabet, secrets, best_only, wanted)
        secrets = _indices(secrets)
        steps = entropy_steps(len(secrets))
        best = np.inf if best_only else None
        least = least_key(kind, len(secrets), self.nfb)
        lead = None
        if best_only and least > -np.inf:
            lead = self._scan(kind, secrets, secrets)[1]
            if lead.min() <= least:
                return secrets, lead
            best = float(lead.min())
        keys = scan_alphabet(self.codes, kind, np.asarray(alphabet, dtype=np.int64), secrets,
                             steps, best, wanted, self.threads)
        guesses = product_codes(self.game, alphabet)
        if lead is not None and kind in WHOLE_KEYS:  # the walk kept only codes better than these
            at = np.minimum(np.searchsorted(guesses, secrets), len(guesses) - 1)
            kept = guesses[at] == secrets
            if wanted is not None:
                kept &= np.asarray(wanted, dtype=bool)[at]
            keys[at[kept]] = lead[kept]
        return guesses, keys

    def walk(self, kind: int, consistent: bool, secrets: np.ndarray, level: int,
             depths: np.ndarray, guessed: Sequence[int] = ()
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """Sets of up to :data:`CODES_WALKED_UP_TO` secrets in a game of pegs or black pegs
        with repeats, whose guesses over an alphabet are every guess that matters (see
        :func:`treegen.rules.code_walk.walk_codes`); the possible secrets only, in any game of
        counts."""
        game = self.game
        alphabet = (game.repetition and game.has_symmetries and not game.listed
                    and self.codes.apart and game.length <= 15)
        if (kind not in WALKED or self.codes.rule == TILES or len(secrets) > CODES_WALKED_UP_TO
                or not (consistent or alphabet)):
            return None
        found: tuple[np.ndarray, np.ndarray, np.ndarray] = native.load().walk_codes(
            self.codes.rule, kind, consistent, self.codes.codes, self.codes.tally,
            self.codes.lut, self.nfb, game.solved_index, _indices(secrets), level, depths,
            entropy_steps(len(secrets)))
        return found

    def _scan(self, kind: int, guesses: np.ndarray | None, secrets: np.ndarray,
              best_only: bool = False) -> tuple[np.ndarray, np.ndarray]:
        every = np.arange(self.game.guess_count) if guesses is None else guesses
        steps = entropy_steps(len(secrets))
        return scan(self.codes, kind, _indices(every), _indices(secrets), steps,
                                  best_only, self.threads)

    def table(self) -> np.ndarray:
        need = self.game.guess_count * self.game.size
        if need > available_memory() // 2:
            raise GameError(f"game {self.game.slug} is scored from its codes: its score table "
                            f"({need:,} bytes) does not fit in memory; read answers with "
                            "state.partition() or state.scorer")
        return super().table()


def uses_table(game: Game, memory: int | None = None) -> bool:
    """Whether a build keeps the score table: where it fits in ``memory`` (bytes; None: half of
    what is available) and pays for its making (:data:`TABLE_PAIRS`)."""
    budget = available_memory() // 2 if memory is None else memory
    return game.guess_count * game.size <= min(budget, TABLE_PAIRS)


#: From this many (guess, secret) pairs a game scored from its codes shares its guesses among
#: threads unless told otherwise: below, numba's start (a second, 140 MB; one thread runs on
#: the kernels compiled ahead of time) costs more than the threads save (5 x 7 entropy: 3.7 s
#: on two threads, 2.3 s on one).
THREADS_FROM = 1 << 30


def threads_for(game: Game, threads: int | None) -> int | None:
    """The threads a game scored from its codes is given: ``threads`` if said; else every core
    (None) from :data:`THREADS_FROM` pairs, one below."""
    if threads is not None:
        return threads
    return None if game.guess_count * game.size >= THREADS_FROM else 1


#: The scorers this process made from recipes another sent (see :meth:`Scorer.__reduce__`).
_REMADE: dict[bytes, Scorer] = {}


def remade(kind: type[Scorer], recipe: tuple[Any, ...]) -> Scorer:
    """The scorer ``kind(*recipe)``, made once in this process."""
    key = pickle.dumps((kind.__qualname__, recipe))
    found = _REMADE.get(key)
    if found is None:
        found = _REMADE[key] = kind(*recipe)
    return found


def scorer_for(game: Game, memory: int | None = None, threads: int | None = None) -> Scorer:
    """Where :func:`uses_table` says so, the answers made from two words a code where the game
    allows (:class:`WordScorer`), else the table; otherwise the kernels on ``threads`` threads
    (None: see :func:`threads_for`)."""
    if uses_table(game, memory):
        return TableScorer(game) if word_layout(game) is None else WordScorer(game)
    return CodeScorer(game, threads_for(game, threads))


def describe(game: Game, memory: int | None = None, threads: int | None = None) -> str:
    """The choice :func:`scorer_for` makes, in words."""
    size = human_size(game.guess_count * game.size)
    if uses_table(game, memory):
        if word_layout(game) is not None:
            return "scored from two words a code"
        return f"scored from a table of {size}"
    threads = threads_for(game, threads)
    cores = "every core" if threads is None else f"{threads} thread{'s' if threads != 1 else ''}"
    return f"scored from the codes on {cores} (a table would take {size})"


_XLOGX = np.zeros(2)


_STEPS = np.zeros(0, dtype=np.float64)


def xlogx(largest: int) -> np.ndarray:
    """s * ln(s) for s = 0 .. largest (0 for s = 0), grown on demand: entropy's keys, in numpy
    and in the kernels alike."""
    global _XLOGX
    if len(_XLOGX) <= largest:
        sizes = np.arange(max(largest + 1, 2 * len(_XLOGX)), dtype=np.float64)
        _XLOGX = sizes * np.log(np.maximum(sizes, 1))
    return _XLOGX


def entropy_steps(count: int) -> np.ndarray:
    """Entropy's steps of s ln s from s to s + 1, for ``count`` secrets: a view of one array
    kept for every count (a build asks at every state), not to be written."""
    global _STEPS
    if len(_STEPS) < count:
        _STEPS = np.diff(xlogx(count))
    return _STEPS[:count]


def _indices(values: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(values, dtype=np.int64)
