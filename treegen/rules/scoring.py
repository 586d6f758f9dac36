"""The score table: every guess against every secret, computed once with array work.

``table[g, s]`` is the dense feedback index (see :attr:`Game.feedback_texts`) of guess ``g`` against
secret ``s``: guesses by rows (every allowed guess), secrets by columns. Everything that
partitions candidates reads this uint8 table instead of scoring pairs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache

import numpy as np

from treegen.player import COUNTS, IN_PLACE, TILES
from treegen.rules import table_cache
from treegen.rules.game import Game

_CHUNK_BYTES = 1 << 25


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
    (see :mod:`treegen.rules.table_cache`).
    """
    if game.hard:  # hard mode restricts guesses, not how they score
        return score_table(replace(game, hard=""))
    game.check_fits()
    table = table_cache.load(game, len(game.feedback_texts))
    if table is None:
        table = compute_table(game)
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
    table = table_cache.load(game, len(game.feedback_texts), game.guess_count)
    if table is None:
        table = against_guesses(game, np.arange(game.guess_count))
        table_cache.store(game, table)
    return table


def black_table(game: Game, guesses: np.ndarray, secrets: np.ndarray) -> np.ndarray:
    """Symbols in place, counted by chunks of guesses."""
    table = np.empty((len(guesses), len(secrets)), dtype=np.uint8)
    step = max(1, _CHUNK_BYTES // max(len(secrets) * guesses.shape[1], 1))
    for lo in range(0, len(guesses), step):
        table[lo:lo + step] = (guesses[lo:lo + step, None, :] == secrets[None, :, :]).sum(
            axis=2, dtype=np.uint8)
    return table


def tile_table(game: Game, guesses: np.ndarray, secrets: np.ndarray) -> np.ndarray:
    """Wordle's tiles as base-3 numbers (grey 0, yellow 1, green 2; the first position most
    significant): the rule's compiled kernel from the codes (:mod:`treegen.rules.code_scores`),
    whose table is then kept in the cache (see :mod:`treegen.rules.table_cache`)."""
    from treegen.rules import code_scores
    both = code_scores.Codes.of(TILES, np.concatenate([guesses, secrets]),
                                np.zeros(1, dtype=np.uint8), len(game.feedback_texts))
    table: np.ndarray = code_scores.block(
        both, np.arange(len(guesses), dtype=np.int64),
        np.arange(len(guesses), len(both.codes), dtype=np.int64))
    return table


def peg_table(game: Game, guesses: np.ndarray, secrets: np.ndarray) -> np.ndarray:
    """The (guesses, secrets) uint8 table of pegs feedback indices, as one small-integer matrix
    product.

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
    the candidates' rows are read (contiguous copies) and binned per guess column; otherwise the
    table is read by columns. A square table is not enough: a word game whose guesses are its
    answers is square, and Wordle's tiles are not symmetric. Work is chunked to bound memory.
    """
    width = table.shape[0] if guesses is None else len(guesses)
    offsets = _column_offsets(width, nfeedback)
    out = np.zeros(width * nfeedback, dtype=np.int64)
    step = max(1, (1 << 22) // max(width, 1))
    for lo in range(0, len(candidates), step):
        rows = candidates[lo:lo + step]
        if symmetric_scores:
            block = table[rows] if guesses is None else table[np.ix_(rows, guesses)]
        else:
            block = (table[:, rows] if guesses is None else table[np.ix_(guesses, rows)]).T
        out += np.bincount((block + offsets).ravel(), minlength=width * nfeedback)
    return out.reshape(width, nfeedback)


@lru_cache(maxsize=8)
def _column_offsets(width: int, nfeedback: int) -> np.ndarray:
    return np.arange(width, dtype=np.intp) * nfeedback
