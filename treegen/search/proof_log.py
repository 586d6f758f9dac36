"""The proof a search writes as it goes, as the top levels see it: the tape the compiled search
extends (:mod:`treegen.search.proof_tape`), the claim that backs the last outcome of each set by
its history, and the symmetries of the claims the top levels write.

Only a search that runs every task in its own process writes one (the workers of other executors
keep their own caches); :mod:`treegen.search.certify` runs such a search and cuts a certificate
from the tape.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from treegen.data import History
from treegen.rules.game import Game
from treegen.rules.symmetry import stabilizer
from treegen.search.native import Kernels
from treegen.search.pools import Pools
from treegen.search.tally import Tally
from treegen.search.tape import ENTRY_WORDS, LISTED, NO_SYMMETRY, PREMISE

__all__ = ["Entry", "ProofLog", "Symmetry"]

#: A symmetry of the game: where each position's symbol comes from, and each symbol's image.
Symmetry = tuple[tuple[int, ...], tuple[int, ...]]

#: An entry of a claim: guess, feedback, and the claim that bounds the class.
Entry = tuple[int, int, int]
#: The words a new tape starts with; it doubles as it fills.
FIRST_WORDS = 1 << 16


class ProofLog:
    """The proof of one search: its tape, and what the top levels add to it."""

    def __init__(self, game: Game, kernels: Kernels) -> None:
        self.game, self.kernels = game, kernels
        self.tape: np.ndarray = kernels.new_tape(FIRST_WORDS)
        #: The claim backing the last outcome found for each set, by its history (-1: none needed).
        self.claims: dict[History, int] = {}
        #: The symmetries the top levels reduced each of their claims' guesses by, by claim.
        self.symmetries: dict[int, list[Symmetry]] = {}

    @property
    def sound(self) -> bool:
        """Whether every bound the search used is backed by a claim."""
        return int(self.tape[1]) == 0

    def claim(self, cands: np.ndarray, history: History, bound: int, depth: int,
              entries: Sequence[tuple[int, int, int]], pools: Pools) -> int:
        """Write the claim of a set the top levels searched, with its entries (guess, feedback,
        claim), naming the guesses its pool left out as the pool does (by the symmetries
        that fix the history, or by interchangeable symbols). Returns the claim, also kept as the
        set's."""
        rows = np.array(sorted(entries), dtype=np.int64).reshape(-1, ENTRY_WORDS)
        listed = len(history) <= pools.FULL_SYMMETRY
        if listed:
            used, present = LISTED, 0
        elif self.game.hard:
            used, present = NO_SYMMETRY, 0
        else:
            used = self.kernels.symbol_mask(pools.used(history))
            present = self.kernels.present_mask(pools.codes, cands)
        self.tape, at = self.kernels.write_claim(self.tape, bound, depth, used, present, rows,
                                                 len(rows))
        if listed:
            self.symmetries[int(at)] = stabilizer(self.game, history)
        self.claims[history] = int(at)
        return int(at)

    def premise(self, history: History, bound: int, depth: int, number: int) -> int:
        """Write the claim of a set proven by premise ``number`` (a certificate of its own), kept
        as the set's; a certificate cut from the tape names the premise in its place."""
        at = self.standing(bound, depth, number)
        self.claims[history] = at
        return at

    def standing(self, bound: int, depth: int, number: int) -> int:
        """Write a claim that stands for premise ``number``, not kept as any set's: what a
        certificate names in place of a class it cuts off into a file of its own."""
        rows = np.empty((0, ENTRY_WORDS), dtype=np.int64)
        self.tape, at = self.kernels.write_claim(self.tape, bound, depth, PREMISE, number, rows, 0)
        return int(at)

    def back(self, history: History, claim: int) -> None:
        """Keep the claim that backs the outcome just found for a set."""
        self.claims[history] = int(claim)

    def of(self, history: History) -> int:
        return self.claims.get(history, -1)

    def entries(self, tally: Tally, guess: int, size: int, lower: Callable[[int, int], int]
                ) -> list[Entry]:
        """A guess's entries on a set of ``size`` secrets, whether it won or was given up: each
        class's cost where solved, and what its failed budget shows, where level filling
        (``lower(depth, size)``) does not already say as much (the classes never searched count
        their floors, which a checker derives). A guess that splits nothing has none: no best
        tree asks it (in hard mode it only narrows the guesses left), and a checker counts it so."""
        found = []
        for sub, child, _, depth in tally.classes:
            if len(sub) == size:
                return []
            if child in tally.costs:
                shown = tally.costs[child]
            elif child == tally.failed:
                shown = tally.budgets[child] + 1
            else:
                continue
            if shown > lower(depth, len(sub)):
                found.append((guess, child[-1][1], self.of(child)))
        return found
