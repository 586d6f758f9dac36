"""How a build scores guesses: a dense table read back, or compiled kernels over the codes.

The table (:func:`treegen.rules.scoring.score_table`) answers every question by a lookup, but it
holds every guess against every secret; past a size it no longer fits, or no longer pays for its
making. :func:`scorer_for` chooses within a memory budget, and both kinds answer the same three
questions, so the compiler and the strategies never know which one they hold.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Protocol

import numpy as np

from treegen.errors import GameError
from treegen.player import TILES
from treegen.rules.game import Game
from treegen.settings import available_memory, human_size

__all__ = ["CodeScorer", "Keyed", "Scorer", "TableScorer", "describe", "scorer_for", "threads_for",
           "uses_table", "xlogx"]


class Keyed(Protocol):
    """What a scorer needs of a heuristic: its key of rows of class sizes, and the name of the
    key a scorer may compute itself (see :data:`treegen.rules.code_scores.KINDS`)."""

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
        the others as infinite, having stopped counting (see :func:`code_scores.scan`)."""
        found: np.ndarray = heuristic.keys(self.counts(guesses, secrets))
        return found

    def alphabet_keys(self, heuristic: Keyed, alphabet: np.ndarray, secrets: np.ndarray,
                      best_only: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """Every code over ``alphabet`` (a game with repeats, see
        :func:`treegen.rules.symmetry.guess_alphabet`) as guesses, ascending, and their keys as
        :meth:`keys` gives them."""
        from treegen.rules.symmetry import product_codes
        guesses = product_codes(self.game, alphabet)
        return guesses, self.keys(heuristic, guesses, secrets, best_only)

    def table(self) -> np.ndarray:
        """The whole score table (what strategies of one's own may read)."""
        from treegen.rules.scoring import score_table
        return score_table(self.game)


class TableScorer(Scorer):
    """Lookups in the dense score table."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        from treegen.rules.scoring import score_table
        self._table = score_table(game)

    def block(self, guesses: np.ndarray, secrets: np.ndarray) -> np.ndarray:
        found: np.ndarray = self._table[np.ix_(guesses, secrets)]
        return found

    def counts(self, guesses: np.ndarray | None, secrets: np.ndarray) -> np.ndarray:
        from treegen.rules.scoring import partition_counts
        return partition_counts(self._table, guesses, secrets, self.nfb,
                                symmetric_scores=self.game.symmetric_scores)

    def table(self) -> np.ndarray:
        return self._table


class CodeScorer(Scorer):
    """Compiled kernels over the codes and their symbol tallies: memory linear in the codes."""

    def __init__(self, game: Game, threads: int | None = None) -> None:
        super().__init__(game)
        self.threads = threads
        from treegen.rules import code_scores
        from treegen.rules.scoring import feedback_index
        self._kernels = code_scores
        #: What the kernels read of the game.
        self.codes = code_scores.Codes.of(game.feedback_rule.kernel, game.codes,
                                          feedback_index(game), self.nfb, len(game.symbols))

    def block(self, guesses: np.ndarray, secrets: np.ndarray) -> np.ndarray:
        return self._kernels.block(self.codes, _indices(guesses), _indices(secrets))

    def counts(self, guesses: np.ndarray | None, secrets: np.ndarray) -> np.ndarray:
        return self._scan(self._kernels.KINDS["counts"], guesses, secrets)[0]

    def keys(self, heuristic: Keyed, guesses: np.ndarray | None, secrets: np.ndarray,
             best_only: bool = False) -> np.ndarray:
        """A built-in heuristic's keys come from the kernel, one number a guess, no rows kept."""
        kind = self._kernels.KINDS.get(heuristic.fused or "")
        if kind is None:
            return super().keys(heuristic, guesses, secrets)
        return self._scan(kind, guesses, secrets, best_only)[1]

    def alphabet_keys(self, heuristic: Keyed, alphabet: np.ndarray, secrets: np.ndarray,
                      best_only: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """A built-in heuristic's keys of every code over the alphabet come from a kernel that
        walks them in order (:mod:`treegen.rules.alphabet_scores`), with no list of them; with
        ``best_only``, the possible secrets are scored first where a guess can be known to be
        as good as any, as by :func:`code_scores.scan`."""
        kind = self._kernels.KINDS.get(heuristic.fused or "")
        if kind is None or self.codes.rule == TILES or self.game.length > 15:
            return super().alphabet_keys(heuristic, alphabet, secrets, best_only)
        from treegen.rules.alphabet_scores import scan_alphabet
        from treegen.rules.symmetry import product_codes
        secrets = _indices(secrets)
        steps = self._steps(len(secrets))
        bound = -1.0
        least = self._kernels.least_key(kind, len(secrets), self.nfb)
        if best_only and least > -np.inf:
            lead = self._scan(kind, secrets, secrets)[1]
            if lead.min() <= least:
                return secrets, lead
            bound = float(lead.min()) if kind in self._kernels.GROWING else -1.0
        keys = scan_alphabet(self.codes, kind, np.asarray(alphabet, dtype=np.int64), secrets,
                             steps, best_only, bound, self.threads)
        return product_codes(self.game, alphabet), keys

    @staticmethod
    def _steps(count: int) -> np.ndarray:
        """Entropy's steps of s ln s, for ``count`` secrets."""
        return np.diff(xlogx(count)[:count + 1])

    def _scan(self, kind: int, guesses: np.ndarray | None, secrets: np.ndarray,
              best_only: bool = False) -> tuple[np.ndarray, np.ndarray]:
        every = np.arange(self.game.guess_count) if guesses is None else guesses
        steps = self._steps(len(secrets))
        return self._kernels.scan(self.codes, kind, _indices(every), _indices(secrets), steps,
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


def scorer_for(game: Game, memory: int | None = None, threads: int | None = None) -> Scorer:
    """The table where :func:`uses_table` says so, else the kernels on ``threads`` threads
    (None: see :func:`threads_for`)."""
    if uses_table(game, memory):
        return TableScorer(game)
    return CodeScorer(game, threads_for(game, threads))


def describe(game: Game, memory: int | None = None, threads: int | None = None) -> str:
    """The choice :func:`scorer_for` makes, in words."""
    size = human_size(game.guess_count * game.size)
    if uses_table(game, memory):
        return f"scored from a table of {size}"
    threads = threads_for(game, threads)
    cores = "every core" if threads is None else f"{threads} thread{'s' if threads != 1 else ''}"
    return f"scored from the codes on {cores} (a table would take {size})"


_XLOGX = np.zeros(2)


def xlogx(largest: int) -> np.ndarray:
    """s * ln(s) for s = 0 .. largest (0 for s = 0), grown on demand: entropy's keys, in numpy
    and in the kernels alike."""
    global _XLOGX
    if len(_XLOGX) <= largest:
        sizes = np.arange(max(largest + 1, 2 * len(_XLOGX)), dtype=np.float64)
        _XLOGX = sizes * np.log(np.maximum(sizes, 1))
    return _XLOGX


def _indices(values: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(values, dtype=np.int64)
