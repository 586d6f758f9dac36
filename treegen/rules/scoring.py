"""The score table: every guess against every secret, computed once with array work.

``table[g, s]`` is the dense feedback index (see :attr:`Game.feedbacks`) of guess ``g`` against secret
``s``. Everything that partitions candidates reads this uint8 table instead of scoring pairs.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from treegen.rules import table_cache
from treegen.rules.game import Game

_CHUNK_BYTES = 1 << 25


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
    """The (N, N) uint8 table of feedback indices; large ones are cached on disk between runs.

    The cache only saves time: a file that is missing or fails its checksum is recomputed and replaced
    (see :mod:`treegen.rules.table_cache`).
    """
    table = table_cache.load(game, len(game.feedbacks))
    if table is None:
        table = compute_table(game)
        table_cache.store(game, table)
    return table


def compute_table(game: Game) -> np.ndarray:
    """The (N, N) uint8 table of feedback indices, as one small-integer matrix product.

    ``a * length + common`` is bilinear in indicator vectors: ``a`` counts equal (position, symbol)
    pairs, and ``common = sum_k min(count_g[k], count_s[k])
    = sum_k sum_t [count_g[k] >= t][count_s[k] >= t]``.
    So ``X @ Y.T`` with 0/1 float32 features gives it exactly, at BLAS speed; a lookup makes it dense.
    """
    codes = game.codes
    count = len(codes)
    s, n = len(game.symbols), game.length
    rows = np.arange(count)
    placed = np.zeros((count, n * s), dtype=np.float32)
    tally = np.zeros((count, s), dtype=np.int64)
    for p in range(n):
        placed[rows, p * s + codes[:, p]] = 1
        tally[rows, codes[:, p]] += 1
    most = n if game.repetition else 1
    atleast = np.concatenate([(tally >= t).astype(np.float32) for t in range(1, most + 1)], axis=1)
    left = np.concatenate([placed * n, atleast], axis=1)
    right = np.concatenate([placed, atleast], axis=1)
    lut = feedback_index(game)
    table = np.empty((count, count), dtype=np.uint8)
    step = max(1, _CHUNK_BYTES // (4 * max(count, 1)))
    for lo in range(0, count, step):
        raw = left[lo:lo + step] @ right.T
        table[lo:lo + step] = lut[raw.astype(np.uint16)]
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
