"""The compiled exact search against an independent reference solver (helpers/reference_solver.py:
plain recursion, its own scorer, no bound but the trivial one) on hundreds of sets of 13 to 120
secrets from real games, with and without a depth limit: real positions of a game (the classes a
history leaves, where the search reduces guesses by symmetry) and random sets (where it must not)."""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache

import pytest

from tests.helpers.reference_solver import INFINITE, Reference
from treegen.rules.game import Game
from treegen.rules.hard_mode import keeping
from treegen.search.bounds import INFEASIBLE, UNLIMITED
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
                         game.code_strings[:game.size], game.code_strings, hard=game.hard)
    return Reference(game.symbols, game.length, game.repetition, game.rule, hard=game.hard)


@cache
def search(game: Game, limited: bool) -> Search:
    return Search(game, DEPTH if limited else None)


def positions(game: Game, rng: random.Random, most: int, count: int) -> list[tuple[list[int], tuple]]:
    """Sets a game really reaches: the secrets a random history of one to three guesses leaves,
    13 to ``most`` of them, with that history (in hard mode, each guess allowed by those before:
    the table then scores guesses against guesses too)."""
    table = search(game, False).context.table
    found: list[tuple[list[int], tuple]] = []
    while len(found) < count:
        cands, allowed = list(range(game.size)), range(game.guess_count)
        history: tuple = ()
        for _ in range(rng.randint(1, 3)):
            guess = rng.choice(allowed)
            secret = rng.choice(cands)
            answer = int(table[guess, secret])
            cands = [c for c in cands if table[guess, c] == answer]
            if game.hard:
                keeps = keeping(game, guess, answer)
                allowed = [g for g in allowed if keeps[table[guess, g]]]
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
    history = covering_history(game) if game.has_symmetries else ()
    return [(sorted(rng.sample(range(game.size), rng.randint(13, most))), history)
            for _ in range(count)]


def compiled_cost(game: Game, cands: list[int], history: tuple, depth: int | None) -> float:
    import numpy as np
    cost, _ = search(game, depth is not None).best(np.array(cands, dtype=np.int64), history,
                                                   UNLIMITED if depth is None else depth)
    return INFINITE if cost >= INFEASIBLE else cost


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


# -- hard mode: every guess must give every answer so far -------------------------------------

#: (game, largest set): hard mode's states are (secrets, allowed guesses), and the reference
#: merges no guesses there, so its sets are smaller. The listed games allow guesses beyond the
#: answers, so their allowed sets are larger than their sets of secrets.
def rhymes(seed: int) -> Game:
    """Hard mode's trap: answers that differ in their first letter alone (bat, cat, fat, ...),
    which hard mode must try one by one while a free guess tests several first letters at once;
    its other guesses are random words."""
    rng = random.Random(seed)
    first = "bcdfghkmprstw"
    answers = sorted({c + stem for stem in ("at", "ig", "op") for c in rng.sample(first, 9)})
    guesses = list(answers)
    while len(guesses) < len(answers) + 45:
        word = "".join(rng.choice(first + "aio") for _ in range(3))
        if word not in guesses:
            guesses.append(word)
    return Game.of_words(answers, guesses, rule="wordle")


HARD_GAMES = [(replace(Game("ABCDE", 3, True), hard=True), 40),
              (replace(Game.preset("mastermind"), hard=True), 30),
              (replace(word_game("wordle", 3), hard=True), 40),
              (replace(word_game("pegs", 4), hard=True), 40),
              (replace(Game("ABCD", 3, True, rule="wordle"), hard=True), 40),
              (replace(rhymes(5), hard=True), 27), (replace(rhymes(6), hard=True), 27),
              (replace(word_game("wordle", 3), hard="hints"), 40),
              (replace(Game("ABCD", 3, True, rule="wordle"), hard="hints"), 40),
              (replace(rhymes(5), hard="hints"), 27), (replace(rhymes(7), hard="hints"), 27)]


def any_sets(game: Game, rng: random.Random, most: int, count: int) -> list[tuple[list[int], tuple]]:
    return [(sorted(rng.sample(range(game.size), rng.randint(13, most))), ()) for _ in range(count)]


def hard_cases():
    rng = random.Random(20261124)
    out = []
    for game, most in HARD_GAMES:
        draws = [("position", positions)]
        if not game.has_symmetries:  # no symmetry to keep: any set, every guess allowed
            draws.append(("random", any_sets))
        for kind, draw in draws:
            for i, (cands, history) in enumerate(draw(game, rng, most, 8)):
                depth = DEPTH if i % 2 else None
                out.append(pytest.param(game, cands, history, depth,
                                        id=f"{game.slug}-{kind}-{i}-depth{depth}"))
    return out


HARD_CASES = hard_cases()


def test_hard_mode_is_compared_on_positions_and_sets_of_every_kind_of_game():
    assert len(HARD_CASES) >= 50
    assert {case.values[0].rule for case in HARD_CASES} == {"pegs", "wordle"}
    assert any(case.values[0].listed for case in HARD_CASES)
    assert sum(case.values[3] is None for case in HARD_CASES) >= 20


@pytest.mark.parametrize("game, cands, history, depth", HARD_CASES)
def test_the_compiled_search_agrees_with_the_reference_solver_in_hard_mode(game, cands, history,
                                                                            depth):
    solver = reference(game)
    secrets = solver.bits([game.code_strings[c] for c in cands])
    names = game.code_strings  # any candidate gives the history's answers: the reference scores one
    allowed = solver.allowed_after([(names[g], solver.scorer(names[g], names[cands[0]]))
                                    for g, _ in history])
    assert compiled_cost(game, cands, history, depth) == solver.cost(secrets, depth, allowed=allowed)


def test_hard_mode_costs_more_or_the_same_and_a_free_guess_can_be_what_it_loses():
    """Hard mode only takes guesses away: never cheaper than the free game, and on some positions
    dearer (else the comparison above would not tell the two apart)."""
    dearer = 0
    for game, cands, history, depth in (case.values for case in HARD_CASES[::3]):
        free = replace(game, hard=False)
        hard_cost = compiled_cost(game, cands, history, depth)
        free_cost = compiled_cost(free, cands, history, depth)
        assert hard_cost >= free_cost
        dearer += hard_cost > free_cost
    assert dearer > 0
