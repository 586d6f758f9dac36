"""Which guesses the exact search tries at a set: one per class of equivalent guesses, and in hard
mode only those the history allows.

Both depend on the history, not only on the candidates, so the search asks here with the history
of each set: the symbols its guesses used (the others are interchangeable) and, in hard mode, the
guesses that give every answer so far. The compiled search carries both down the tree itself.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from treegen.data import History
from treegen.player import HINTS_KEPT
from treegen.rules.game import Game
from treegen.rules.hard_mode import keeping
from treegen.rules.symmetry import representatives, symbol_view
from treegen.search.native import Kernels

__all__ = ["Pools"]

#: Outside hard mode the compiled search takes an empty set of allowed guesses: every guess is.
EVERY_GUESS = np.empty(0, dtype=np.int64)
#: No free pools kept (see :func:`treegen.search.kernels.free_pool`): these calls may come from
#: threads beside the search's own, which alone writes its pools (:attr:`Context.pools`).
NO_MEMO = np.empty((0, 3), dtype=np.int64)


class Pools:
    """The guess pools of one game's search. ``table`` scores every guess against every guess in
    hard mode (:func:`treegen.rules.scoring.guess_table`), against every secret otherwise."""

    #: Up to this many guesses into the game, the pool is reduced by every symmetry (positions too);
    #: deeper, only by interchangeable unused symbols, which is nearly as good and far cheaper.
    FULL_SYMMETRY = 2

    def __init__(self, game: Game, table: np.ndarray, kernels: Kernels) -> None:
        self.game, self.table, self.kernels = game, table, kernels
        #: The guesses as the compiled search sees their symbols (see :func:`symbol_view`).
        self.codes = symbol_view(game)
        #: The letters of the guesses under a hard mode whose test is the hints kept (its
        #: ``kernel``), which the compiled search reads them by (see
        #: :func:`treegen.search.kernels.fitting`); empty otherwise.
        by_letters = game.hard_mode is not None and game.hard_mode.kernel == HINTS_KEPT
        self.hints = np.ascontiguousarray(game.codes if by_letters else self.codes[:0],
                                          dtype=np.uint8)
        self.symbols_used: dict[tuple[int, ...], np.ndarray] = {}
        self._allowed = lru_cache(maxsize=256)(self._derive)

    def used(self, history: History) -> np.ndarray:
        """Which symbols the guesses of a history use (the others are interchangeable)."""
        guesses = tuple(guess for guess, _ in history)
        used = self.symbols_used.get(guesses)
        if used is None:
            used = np.zeros(len(self.game.symbols), dtype=np.bool_)
            for guess in guesses:
                used[self.codes[guess]] = True
            self.symbols_used[guesses] = used
        return used

    def allowed(self, history: History) -> np.ndarray:
        """In hard mode, the guesses that give every answer of ``history`` (ascending); outside
        it, none (the compiled search's sign that every guess is allowed)."""
        return self._allowed(history) if self.game.hard else EVERY_GUESS

    def _derive(self, history: History) -> np.ndarray:
        if not history:
            return np.arange(self.game.guess_count, dtype=np.int64)
        before = self._allowed(history[:-1])
        guess, feedback = history[-1]
        allowed: np.ndarray = before[keeping(self.game, guess, feedback)[self.table[guess, before]]]
        return allowed

    def guesses(self, cands: np.ndarray, history: History) -> np.ndarray:
        """One guess per class of equivalent guesses at a set: by every symmetry near the root, by
        interchangeable unused symbols deeper; in hard mode, of the guesses allowed.

        A symmetry that fixes the history maps the allowed guesses onto themselves, so the first
        of a class is allowed when any of it is. Symbols no candidate holds are interchangeable
        too, but not as a symmetry (an allowed guess may become one that is not): hard mode
        reduces its deeper pools by nothing.
        """
        if len(history) <= self.FULL_SYMMETRY:
            pool = representatives(self.game, history).astype(np.int64)
            return np.intersect1d(pool, self.allowed(history)) if self.game.hard else pool
        if self.game.hard:
            return self.allowed(history)
        free: np.ndarray = self.kernels.free_pool(self.codes, self.used(history), cands, NO_MEMO)
        return free
