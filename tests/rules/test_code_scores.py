"""Scoring from the codes (no table): the kernels against the table, pair by pair and book by book."""


import numpy as np
import pytest

from treegen.compiler import compile_tree
from treegen.registry import make_strategy
from treegen.rules import scoring
from treegen.rules.game import Game
from treegen.rules.scoring import CodeScorer, TableScorer, WordScorer, scorer_for, word_layout
from treegen.strategies.heuristics import HEURISTICS, Minimax, pick

pytestmark = pytest.mark.kernels  # CI runs them on numba's JIT kernels too

WORDS = ["cigar", "rebut", "sissy", "humph", "awake", "blush", "focal", "evade", "naval", "serve",
         "heath", "dwarf", "model", "karma", "stink", "grade", "quiet", "bench", "abate", "feign"]

GAMES = {
    "pegs, repeats": Game("1234567", 4, True),
    "pegs, no repeats": Game.preset("bulls-and-cows"),
    "black pegs": Game("12345", 4, True, rule="black"),
    "tiles": Game.preset("wordle"),
    "tiles, square": Game.of_words(WORDS),
}


def _agreeing_on_random_pairs(ours, table, seed):
    """Each random set of guesses and of secrets, once ``ours`` answers and counts them as the
    table does."""
    game = table.game
    rng = np.random.default_rng(seed)
    for secrets in (1, 5, 60, 700):
        guesses = np.sort(rng.choice(game.guess_count, min(400, game.guess_count), replace=False))
        chosen = np.sort(rng.choice(game.size, min(secrets, game.size), replace=False))
        assert np.array_equal(ours.block(guesses, chosen), table.block(guesses, chosen))
        assert np.array_equal(ours.counts(guesses, chosen), table.counts(guesses, chosen))
        assert np.array_equal(ours.counts(None, chosen), table.counts(None, chosen))
        yield guesses, chosen


@pytest.mark.parametrize("name", GAMES)
def test_the_kernels_agree_with_the_table_on_random_pairs(name):
    game = GAMES[name]
    table, codes = TableScorer(game), CodeScorer(game)
    for guesses, chosen in _agreeing_on_random_pairs(codes, table, 7):
        for heuristic in HEURISTICS.values():
            ours, theirs = codes.keys(heuristic(), guesses, chosen), table.keys(heuristic(), guesses,
                                                                              chosen)
            if heuristic.name == "entropy":  # sums of floats in another order
                assert np.allclose(ours, theirs, rtol=1e-12, atol=1e-9)
            else:
                assert np.array_equal(ours, theirs)


@pytest.mark.parametrize("name", [name for name in GAMES if word_layout(GAMES[name]) is not None])
def test_answers_made_from_two_words_a_code_agree_with_the_table(name, monkeypatch):
    game = GAMES[name]
    table, words = TableScorer(game), WordScorer(game)
    monkeypatch.setattr(scoring, "_ANSWERS_AT_ONCE", 5000)  # the counts of many guesses in pieces
    assert len(list(_agreeing_on_random_pairs(words, table, 5))) == 4
    assert np.array_equal(words.table(), table.table())


def _choice(heuristic, keys, codes, chosen):
    tied = heuristic.tied(keys, lambda rows: codes.counts(rows, chosen))
    return pick(np.flatnonzero(tied), chosen)


@pytest.mark.parametrize("name", GAMES)
def test_keys_of_the_best_only_keep_the_choice(name):
    """A heuristic's choice asks only for the keys of the guesses it may choose: the kernels stop
    counting a guess once past the best (minimax, expected: its key infinite), and every key
    they keep is exact (entropy's are all whole); the choice is the same."""
    game, dropped = GAMES[name], 0
    codes = CodeScorer(game)
    rng = np.random.default_rng(11)
    for secrets in (5, 9, 65, 300, 1500):
        chosen = np.sort(rng.choice(game.size, min(secrets, game.size), replace=False))
        for heuristic in (HEURISTICS["minimax"](), HEURISTICS["expected"](), HEURISTICS["entropy"](),
                          HEURISTICS["parts"]()):
            whole = codes.keys(heuristic, None, chosen)
            best = codes.keys(heuristic, None, chosen, best_only=True)
            assert np.all(np.isinf(best) | (best == whole))
            assert _choice(heuristic, best, codes, chosen) == _choice(heuristic, whole, codes, chosen)
            dropped += int(np.isinf(best).sum())
            if heuristic.name == "entropy" and len(chosen) > codes.nfb:
                assert np.array_equal(best, whole)  # no guess dropped, no run ended
    assert dropped > 0


def test_a_possible_secret_as_good_as_any_guess_can_be_ends_the_scan():
    """When a possible secret splits the others as evenly as the answers allow, no guess can do
    better, and a possible secret wins ties: the kernels score no other guess."""
    game = GAMES["pegs, repeats"]
    codes = CodeScorer(game)
    guess = game.index("1234")
    answers = codes.block(np.array([guess]), np.arange(game.size))[0]
    twice = np.concatenate([np.flatnonzero(answers == f)[:2] for f in np.unique(answers)])
    chosen = np.unique(np.concatenate([twice, [guess]]))
    heuristic = HEURISTICS["minimax"]()  # 27 secrets, 15 answers: no guess has a class under 2
    whole = codes.keys(heuristic, None, chosen)
    best = codes.keys(heuristic, None, chosen, best_only=True)
    assert _choice(heuristic, best, codes, chosen) == _choice(heuristic, whole, codes, chosen) == guess
    outside = np.setdiff1d(np.arange(game.guess_count), chosen)
    assert np.isinf(best[outside]).all() and np.array_equal(best[chosen], whole[chosen])
    assert whole[guess] == whole.min() == 2


BOOK_GAMES = {"pegs, repeats": Game.preset("mastermind"), "pegs, no repeats": Game("1234567", 4, False),
              "black pegs": GAMES["black pegs"], "tiles, square": GAMES["tiles, square"]}
STRATEGIES = [*((name, pool) for name in HEURISTICS for pool in ("all", "consistent")),
              ("simple", "consistent")]


@pytest.mark.parametrize("name", BOOK_GAMES)
@pytest.mark.parametrize(("strategy", "pool"), STRATEGIES)
def test_books_built_with_and_without_the_table_are_the_same(name, strategy, pool):
    game = BOOK_GAMES[name]
    made = [compile_tree(game, make_strategy(strategy, pool=pool), scorer=scorer)
            for scorer in (TableScorer(game), CodeScorer(game))]
    assert made[0][0] == made[1][0]
    assert np.array_equal(made[0][1], made[1][1])


def test_the_memory_budget_chooses_the_table_or_the_kernels():
    game = Game.preset("mastermind")
    assert isinstance(scorer_for(game), WordScorer)  # pegs: answers made from two words a code
    assert isinstance(scorer_for(Game.preset("jotto")), TableScorer)  # letters in common: a table
    assert isinstance(scorer_for(game, memory=1000), CodeScorer)
    assert isinstance(scorer_for(Game("1234567", 6, True)), CodeScorer)  # 78 GB of table


def test_a_heuristic_with_keys_of_its_own_is_scored_through_rows():
    class Smallest(Minimax):
        name = "smallest-largest-then-parts"

        def keys(self, counts):
            return counts.max(axis=1) * 100 - (counts > 0).sum(axis=1)

    assert Minimax.fused == "minimax" and Smallest.fused is None
    game = BOOK_GAMES["pegs, repeats"]
    made = [compile_tree(game, Smallest(), scorer=scorer)[0]
            for scorer in (TableScorer(game), CodeScorer(game))]
    assert made[0] == made[1]


def test_a_guess_as_good_as_any_can_be_ends_its_run_of_guesses():
    """Past the possible secrets, the first guess that splits the secrets as evenly as the answers
    allow ends the scan: the guesses after it could only tie, and would lose the tie."""
    game = GAMES["pegs, repeats"]
    codes = CodeScorer(game)
    guess = game.index("5671")
    answers = codes.block(np.array([guess]), np.arange(game.size))[0]
    chosen = np.array([np.flatnonzero(answers == f)[0] for f in np.unique(answers)
                       if f != answers[guess]])  # one secret an answer: 5671 splits them all
    heuristic = HEURISTICS["minimax"]()
    whole = codes.keys(heuristic, None, chosen)
    best = codes.keys(heuristic, None, chosen, best_only=True)
    choice = _choice(heuristic, best, codes, chosen)
    assert choice == _choice(heuristic, whole, codes, chosen) and choice not in chosen
    assert best[choice] == whole[choice] == 1 and choice <= guess
    later = np.arange(game.guess_count) > choice
    assert np.isinf(best[later]).all() and np.isfinite(whole[later]).all()


def test_a_game_too_small_to_pay_for_threads_is_scored_on_one():
    """Threads need numba's start (a second, 140 MB): a game below THREADS_FROM pairs is scored on
    one thread unless told otherwise, a larger one on every core; what is asked is given."""
    from treegen.rules.scoring import THREADS_FROM, describe, threads_for
    small, large = Game("1234567", 5, True), Game("123456", 6, True)
    assert small.size ** 2 < THREADS_FROM <= large.size ** 2
    assert threads_for(small, None) == 1 and threads_for(large, None) is None
    assert threads_for(small, 2) == 2 and threads_for(large, 1) == 1
    assert "on 1 thread " in describe(small) and "on every core" in describe(large)
    assert "on 2 threads" in describe(small, threads=2)
