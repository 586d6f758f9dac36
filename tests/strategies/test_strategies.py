import numpy as np
import pytest

from tests.helpers.reference import reference_tree
from treegen.api import build_book
from treegen.errors import StrategyError
from treegen.registry import make_strategy
from treegen.rules.game import Game
from treegen.rules.scoring import TableScorer
from treegen.strategies.base import State
from treegen.strategies.heuristics import Entropy, Minimax

SMALL_GAMES = [Game("ABCD", 3, True), Game("ABCDE", 3, False), Game("ABC", 4, True)]


@pytest.mark.parametrize("game", SMALL_GAMES, ids=str)
@pytest.mark.parametrize("name, pool", [
    ("simple", "consistent"),
    ("minimax", "all"), ("minimax", "consistent"),
    ("expected", "all"), ("expected", "consistent"),
    ("entropy", "all"), ("entropy", "consistent"),
    ("parts", "all"), ("parts", "consistent"),
])
def test_every_strategy_matches_the_plain_reference(game, name, pool):
    book = build_book(game, name, pool=pool)
    assert book["tree"] == reference_tree(game, name, pool)


def square_word_games(count=25, size=12, seed=4):
    """Word games whose guesses are their answers, drawn from Wordle's answers: square score tables
    that are not symmetric (tiles score a guess against a secret, not both ways)."""
    from treegen.rules.wordlists import wordle_lists
    answers = wordle_lists()[0]
    rng = np.random.default_rng(seed)
    return [Game.of_words(sorted(rng.choice(answers, size, replace=False).tolist()))
            for _ in range(count)]


@pytest.mark.parametrize("name", ["minimax", "expected", "entropy", "parts"])
@pytest.mark.parametrize("pool", ["all", "consistent"])
def test_heuristics_count_classes_the_right_way_round_on_square_word_games(name, pool):
    # 12 words that are both the answers and the guesses: a square table, yet tiles are not
    # symmetric (a game's classes read the wrong way round chose dicey, 10 parts, over brace, 11)
    for game in square_word_games():
        assert build_book(game, name, pool=pool)["tree"] == reference_tree(game, name, pool), \
            game.guesses


def state_for(game, candidates, history=()):
    return State(game, TableScorer(game), np.array(sorted(game.index(c) for c in candidates)), history)


def test_tie_break_prefers_a_possible_secret_over_an_earlier_code():
    # Candidates AAB, ABA, BAA: the possible secret ABA splits them as well as any earlier code does
    game = Game("AB", 3, True)
    state = state_for(game, ["AAB", "ABA", "BAA"])
    guess = game.code_strings[Minimax().choose(state)]
    assert guess == "AAB"  # the first candidate splits into singletons: it must win over AAA
    state = state_for(game, ["AAB", "ABA", "BAA", "BBB"])
    counts = {c: sorted(state.partition(c).values()) for c in game.code_strings}
    best = min(max(v) for v in counts.values())
    tied = [c for c in game.code_strings if max(counts[c]) == best]
    possible = [c for c in tied if c in state.codes]
    expected = possible[0] if possible else tied[0]
    assert game.code_strings[Minimax().choose(state)] == expected


def test_tie_break_takes_the_first_code_when_no_candidate_ties():
    game = Game("ABCD", 3, True)
    cands = ["ABC", "ABD", "ACD", "BCD", "DDD"]
    state = state_for(game, cands)
    keys = {c: max(state.partition(c).values()) for c in game.code_strings}
    best = min(keys.values())
    tied = [c for c in game.code_strings if keys[c] == best]
    possible = [c for c in tied if c in cands]
    expected = possible[0] if possible else tied[0]
    assert game.code_strings[Minimax().choose(state)] == expected


def test_entropy_ties_are_exact_even_when_floats_differ():
    # {2,2,2,2} and {4,1,1,1,1} have exactly the same entropy (2^2^4 = 4^4), different float sums
    counts = np.array([[4, 1, 1, 1, 1, 0], [2, 2, 2, 2, 0, 0], [5, 1, 1, 1, 0, 0]])
    assert Entropy().best(counts).tolist() == [True, True, False]
    # the same multiset in another order must tie bit-for-bit
    counts = np.array([[5, 3, 1, 1, 7, 0], [0, 1, 7, 3, 1, 5], [9, 3, 1, 1, 3, 0]])
    assert Entropy().best(counts).tolist() == [True, True, False]


def test_one_or_two_candidates_guess_the_first():
    game = Game.preset("mastermind")
    for name in ("minimax", "expected", "entropy", "parts"):
        strategy = make_strategy(name)
        for cands in (["3456"], ["2345", "6543"]):
            assert game.code_strings[strategy.choose(state_for(game, cands))] == cands[0]


def test_random_is_reproducible_and_a_function_of_seed_and_state():
    game = Game("ABCD", 3, True)
    a = build_book(game, "random", seed=3)
    assert a == build_book(game, "random", seed=3)
    assert a["strategy"]["seed"] == 3
    others = [build_book(game, "random", seed=s)["tree"] for s in range(4, 8)]
    assert any(t != a["tree"] for t in others)
    strategy = make_strategy("random", seed=3)
    state = state_for(game, game.code_strings)
    assert {strategy.choose(state) for _ in range(5)} == {strategy.choose(state_for(game, game.code_strings))}


@pytest.mark.parametrize("name", ["simple", "random"])
def test_simple_and_random_refuse_pool_all(name):
    with pytest.raises(StrategyError, match="only guesses consistent codes"):
        make_strategy(name, pool="all")


def test_unknown_strategy_and_pool():
    with pytest.raises(StrategyError, match="unknown strategy 'best'"):
        make_strategy("best")
    with pytest.raises(StrategyError, match="unknown pool 'some'"):
        make_strategy("minimax", pool="some")
