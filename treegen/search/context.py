"""What the compiled kernels of one game's search read, as one value (and the memo of free pools
they keep: the one field they write).

The search's tables and the facts of its game's rule travel together through every kernel and
every level of the recursion; passed one by one they made calls of fifteen positional arguments
in which two tables of the same type could swap unnoticed. Numba passes a tuple's fields as
separate arguments, so bundling them costs nothing at run time.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["Context"]

#: Free pools a search keeps (see :attr:`Context.pools`), a prime so that every bit of the two
#: sets of symbols picks the row: 3.7 MB on 5 of 9; for games of up to MEMO_SYMBOLS symbols (both
#: sets as bits fit a word).
POOL_ROWS = 31
MEMO_SYMBOLS = 30


class Context(NamedTuple):
    """The tables of an exact search, built once per search (:meth:`of`)."""

    #: Scores read by guesses: every guess against every secret, or in hard mode against every
    #: guess, since the allowed guesses are split like the candidates.
    table: np.ndarray
    #: The score table read by secrets (:func:`treegen.rules.scoring.secret_major`).
    by_secret: np.ndarray
    #: How many answers the rule has, and which of them says "solved".
    nfb: int
    solved: int
    #: Level-filling bounds (see :mod:`treegen.search.kernels`).
    lbt: np.ndarray
    #: The guesses as the search sees their symbols (:func:`treegen.rules.symmetry.symbol_view`).
    codes: np.ndarray
    #: The guesses' letters under Wordle's own hard mode (:func:`treegen.search.kernels.fitting`);
    #: empty otherwise.
    hints: np.ndarray
    #: The one field the kernels write: the free pools found last
    #: (:func:`treegen.search.kernels.free_pool`), a row each: the symbols used and present as
    #: bits, the pool's size (-1: none yet) and the pool; no rows past MEMO_SYMBOLS symbols. Only
    #: the kernels of the search's own thread write it (threads beside it pass no memo; a forked
    #: worker has its copy), since a row is not written at once.
    pools: np.ndarray

    @classmethod
    def of(cls, table: np.ndarray, by_secret: np.ndarray, nfb: int, solved: int, lbt: np.ndarray,
           codes: np.ndarray, hints: np.ndarray) -> Context:
        """The value with the one layout each field is compiled for (the kernels built ahead of
        time take no other)."""
        symbols = int(codes.max()) + 1 if codes.size else 0  # every symbol is in some code
        pools = np.zeros((POOL_ROWS if symbols <= MEMO_SYMBOLS else 0, 3 + len(codes)),
                         dtype=np.int64)
        pools[:, 2] = -1
        return cls(np.ascontiguousarray(table, dtype=np.uint8),
                   np.ascontiguousarray(by_secret, dtype=np.uint8), int(nfb), int(solved),
                   np.ascontiguousarray(lbt, dtype=np.int64),
                   np.ascontiguousarray(codes, dtype=np.uint8),
                   np.ascontiguousarray(hints, dtype=np.uint8), pools)
