"""The score table: every guess against every secret, computed once with array work.

``table[g, s]`` is the dense feedback index (see :attr:`Game.feedbacks`) of guess ``g`` against secret
``s``. Everything that partitions candidates reads this uint8 table instead of scoring pairs.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .game import Game

_ROWS_PER_CHUNK_BYTES = 1 << 24


def feedback_index(game: Game) -> np.ndarray:
    """Lookup from ``a * (length + 1) + b`` to the dense feedback index."""
    n = game.length
    lut = np.full((n + 1) * (n + 1), 255, dtype=np.uint8)
    for i, (a, b) in enumerate(game.feedbacks):
        lut[a * (n + 1) + b] = i
    return lut


def solved_index(game: Game) -> int:
    return game.feedbacks.index(game.solved_feedback)


@lru_cache(maxsize=4)
def score_table(game: Game) -> np.ndarray:
    """The (N, N) uint8 table of feedback indices, built in row chunks to bound temporary memory."""
    codes = game.codes
    count = len(codes)
    s, n = len(game.symbols), game.length
    lut = feedback_index(game)
    table = np.empty((count, count), dtype=np.uint8)
    # common symbols = sum over symbols of the smaller count; with 0/1 counts an AND is enough
    tally = np.zeros((count, s), dtype=np.uint8)
    for p in range(n):
        tally[np.arange(count), codes[:, p]] += 1
    columns = [np.ascontiguousarray(tally[:, k]) for k in range(s)]
    combine = np.minimum if game.repetition else np.bitwise_and
    positions = [np.ascontiguousarray(codes[:, p]) for p in range(n)]
    step = max(1, _ROWS_PER_CHUNK_BYTES // max(count, 1))
    for lo in range(0, count, step):
        hi = min(count, lo + step)
        exact = np.zeros((hi - lo, count), dtype=np.uint8)
        for col in positions:
            exact += col[lo:hi, None] == col[None, :]
        common = np.zeros((hi - lo, count), dtype=np.uint8)
        for col in columns:
            common += combine(col[lo:hi, None], col[None, :])
        # raw = a * (n + 1) + (common - a) = a * n + common
        wide = np.uint16 if (n + 1) ** 2 > 256 else np.uint8
        raw = exact.astype(wide) * wide(n) + common
        table[lo:hi] = lut[raw]
    return table


def partition_counts(table: np.ndarray, guesses: np.ndarray | None, candidates: np.ndarray,
                     nfeedback: int) -> np.ndarray:
    """Class sizes of ``candidates`` under each guess: an (len(guesses), nfeedback) int array.

    ``guesses=None`` means every code. Scores are symmetric, so the candidates' rows of the table are
    read (contiguous copies) and binned per guess column; work is chunked to bound memory.
    """
    width = table.shape[1] if guesses is None else len(guesses)
    offsets = _column_offsets(width, nfeedback)
    out = np.zeros(width * nfeedback, dtype=np.int64)
    step = max(1, (1 << 22) // max(width, 1))
    for lo in range(0, len(candidates), step):
        rows = candidates[lo:lo + step]
        block = table[rows] if guesses is None else table[np.ix_(rows, guesses)]
        out += np.bincount((block + offsets).ravel(), minlength=width * nfeedback)
    return out.reshape(width, nfeedback)


@lru_cache(maxsize=8)
def _column_offsets(width: int, nfeedback: int) -> np.ndarray:
    return np.arange(width, dtype=np.intp) * nfeedback
