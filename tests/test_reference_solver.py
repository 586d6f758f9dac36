"""The compiled exact search against an independent reference solver (reference_solver.py: plain
recursion, its own scorer, no bound but the trivial one) on hundreds of sets of 13 to 120 secrets
from real games, with and without a depth limit: real positions of a game (the classes a history
leaves, where the search reduces guesses by symmetry) and random sets (where it must not)."""

from __future__ import annotations

import random
from functools import cache

import pytest
from reference_solver import INFINITE, Reference

from treegen.rules.game import Game
from treegen.search.bounds import UNLIMITED
from treegen.search.exact import Search

#: Run again on numba's JIT kernels in CI (see .ci/run).
pytestmark = pytest.mark.kernels



def word_game(rule: str, seed: int, letters: str = "abcdef", length: int = 4) -> Game:
    """Random words (some repeating a letter): 45 answers among 90 guesses."""
    rng = random.Random(seed)
    words: list[str] = []
    while len(words) < 90:
        word = "".join(rng.choice(letters) for _ in range(length))
        if word not in words:
            words.append(word)
    return Game.of_words(sorted(words[:45]), words, rule=rule)


#: (game, largest set drawn from it): sets the reference solves in well under a second. The
#: listed games are neither symmetric nor square (guesses beyond the answers), and Wordle's
#: tiles score guess and secret differently.
GAMES = [(Game("ABCDEF", 3, False), 60), (Game("ABCDE", 3, True), 60), (Game("ABCD", 4, True), 50),
         (Game("0123456", 3, False), 30), (Game.preset("mastermind"), 20),
         (word_game("wordle", 1), 45), (word_game("pegs", 2), 45), (Game("ABCD", 3, True, rule="black"), 24),
         (Game("ABCD", 3, True, rule="wordle"), 40)]
#: Sets of this game and size the reference takes seconds for: a few of them.
LARGE = (Game("ABCDE", 3, True), 100, 120, 3)
DEPTH = 4  #: the depth limit of every other comparison (it binds on many of these sets)


@cache
def reference(game: Game) -> Reference:
    if game.listed:
        return Reference(game.symbols, game.length, game.repetition, game.rule,
                         game.code_strings[:game.size], game.code_strings)
    return Reference(game.symbols, game.length, game.repetition, game.rule)


@cache
def search(game: Game, limited: bool) -> Search:
    return Search(game, DEPTH if limited else None)


def positions(game: Game, rng: random.Random, most: int, count: int) -> list[tuple[list[int], tuple]]:
    """Sets a game really reaches: the secrets a random history of one to three guesses leaves,
    13 to ``most`` of them, with that history."""
    table = search(game, False).table
    found: list[tuple[list[int], tuple]] = []
    while len(found) < count:
        cands = list(range(game.size))
        history: tuple = ()
        for _ in range(rng.randint(1, 3)):
            guess = rng.randrange(game.guess_count)
            secret = rng.choice(cands)
            answer = int(table[guess, secret])
            cands = [c for c in cands if table[guess, c] == answer]
            history = (*history, (guess, answer))
            if 13 <= len(cands) <= most:
                found.append((cands, history))
                break
            if len(cands) < 13:
                break
    return found


def covering_history(game: Game) -> tuple:
    """A history of three guesses or more that use every symbol: with it the search treats no
    symbol as interchangeable and no position as symmetric, as an arbitrary set requires."""
    symbols, length = game.symbols, game.length
    guesses: list[int] = []
    while len(guesses) < 3 or len(guesses) * length < len(symbols):
        start = len(guesses) * length
        guesses.append(game.index("".join(symbols[(start + i) % len(symbols)]
                                          for i in range(length))))
    assert {s for g in guesses for s in game.code_strings[g]} == set(symbols)
    return tuple((g, 0) for g in guesses)


def random_sets(game: Game, rng: random.Random, most: int, count: int) -> list[tuple[list[int], tuple]]:
    history = covering_history(game) if game.symmetric else ()
    return [(sorted(rng.sample(range(game.size), rng.randint(13, most))), history)
            for _ in range(count)]


def compiled_cost(game: Game, cands: list[int], history: tuple, depth: int | None) -> float:
    import numpy as np
    cost, _ = search(game, depth is not None).best(np.array(cands, dtype=np.int64), history,
                                                   UNLIMITED if depth is None else depth)
    return INFINITE if cost < 0 else cost


def cases():
    rng = random.Random(20261123)
    out = []
    for game, most in GAMES:
        for kind, draw in (("position", positions), ("random", random_sets)):
            count = 30 if game.rule == "pegs" and not game.listed else 12
            for i, (cands, history) in enumerate(draw(game, rng, most, count)):
                depth = DEPTH if i % 2 else None
                out.append(pytest.param(game, cands, history, depth,
                                        id=f"{game.slug}-{kind}-{i}-depth{depth}"))
    game, least, most, count = LARGE
    for i in range(count):
        cands = sorted(rng.sample(range(game.size), rng.randint(least, most)))
        out.append(pytest.param(game, cands, covering_history(game), None,
                                id=f"{game.slug}-large-{i}"))
    return out


CASES = cases()


def test_the_comparison_covers_at_least_300_sets_of_13_to_120_secrets():
    sizes = [len(case.values[1]) for case in CASES]
    depths = [case.values[3] for case in CASES]
    assert len(CASES) >= 300 and depths.count(DEPTH) >= 150 and depths.count(None) >= 150
    assert min(sizes) >= 13 and max(sizes) <= 120 and max(sizes) >= 100


@pytest.mark.parametrize("game, cands, history, depth", CASES)
def test_the_compiled_search_agrees_with_the_reference_solver(game, cands, history, depth):
    solver = reference(game)
    secrets = solver.bits([game.code_strings[c] for c in cands])
    assert compiled_cost(game, cands, history, depth) == solver.cost(secrets, depth)
