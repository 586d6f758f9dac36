"""Which guesses hard mode allows after an answer, under either rule (see ``HARD_MODES``).

Both rules are a question about the feedback the earlier guess gives the new one, taken as the
secret: the strict rule asks for the answer itself; Wordle's own ("hints") asks for at least its
greens, and at least as many green or yellow tiles on each letter. So a rule is a set of
feedbacks per (guess, answer) — :func:`keeping` — and every guess is sorted by a row of the score
table, as the candidates are.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from treegen.data import History
from treegen.player import SAME_ANSWER
from treegen.rules.game import Game
from treegen.rules.scoring import against_guesses

__all__ = ["allowed_guesses", "keeping"]

GREY, YELLOW, GREEN = 0, 1, 2


def keeping(game: Game, guess: int, feedback: int) -> np.ndarray:
    """Which feedbacks of ``guess`` against a later guess (one bool per feedback index) let that
    guess follow the answer ``feedback`` in hard mode."""
    nfb = len(game.feedback_texts)
    if game.hard_mode is None or game.hard_mode.kernel == SAME_ANSWER:
        strict: np.ndarray = np.arange(nfb) == feedback
        return strict
    tiles = _tiles(game.length)
    green, marked = tiles == GREEN, tiles != GREY
    keeps: np.ndarray = (green | ~green[feedback]).all(axis=1)
    letters = game.codes[guess]
    for letter in np.unique(letters):
        at = letters == letter
        keeps &= marked[:, at].sum(axis=1) >= marked[feedback, at].sum()
    return keeps


def allowed_guesses(game: Game, history: History) -> np.ndarray:
    """The guesses hard mode allows after ``history`` (ascending)."""
    allowed = np.arange(game.guess_count)
    if not history:
        return allowed
    rows = against_guesses(game, np.array([guess for guess, _ in history], dtype=np.intp))
    for row, (guess, feedback) in zip(rows, history):
        allowed = allowed[keeping(game, guess, feedback)[row[allowed]]]
    return allowed


@lru_cache(maxsize=8)
def _tiles(length: int) -> np.ndarray:
    """Every feedback index as its tiles, one row each (the first position most significant, as
    :func:`treegen.rules.scoring.tile_table` numbers them)."""
    index = np.arange(3 ** length)
    powers = 3 ** np.arange(length - 1, -1, -1)
    tiles: np.ndarray = (index[:, None] // powers[None, :]) % 3
    tiles.flags.writeable = False  # shared by every call
    return tiles
