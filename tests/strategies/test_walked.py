"""Subtrees of small sets walked whole in compiled code: the same trees as the heuristics' own
choices state by state, for every heuristic it walks, pool and rule; and it walks only where it
chooses as they do."""

import itertools

import numpy as np
import pytest

from tests.rules.test_words import random_words
from treegen.compiler import WALKED_FROM, compile_tree
from treegen.registry import make_strategy
from treegen.rules import scoring
from treegen.rules.game import Game
from treegen.rules.scoring import CODES_WALKED_UP_TO, CodeScorer, TableScorer, WordScorer
from treegen.strategies.heuristics import HEURISTICS, Heuristic

pytestmark = pytest.mark.kernels  # CI runs them on numba's JIT kernels too

WORDS = random_words(7, 400, "abcdefg")
GAMES = {
    "pegs 4 x 6": Game("123456", 4, True),
    "pegs 3 x 7 without repeats": Game("1234567", 3, False),
    "black pegs 4 x 5": Game("12345", 4, True, rule="black"),
    "jotto 3 x 6": Game("123456", 3, True, rule="jotto"),
    "tiles on words": Game.of_words(WORDS[::3], WORDS),
}
WALKED = [name for name in HEURISTICS if scoring.KINDS[name] in scoring.WALKED]


def asked_at_every_state(monkeypatch):
    """The heuristics asked state by state, as before the walk."""
    monkeypatch.setattr(Heuristic, "walked", lambda self, game: None)


@pytest.mark.parametrize("game_name", GAMES)
@pytest.mark.parametrize("pool", ["all", "consistent"])
@pytest.mark.parametrize("name", WALKED)
def test_a_walked_book_is_the_book_of_the_heuristic_asked_at_every_state(game_name, pool, name,
                                                                         monkeypatch):
    game = GAMES[game_name]
    walked_tree, walked_depths = compile_tree(game, make_strategy(name, pool=pool))
    with monkeypatch.context() as patched:
        asked_at_every_state(patched)
        tree, depths = compile_tree(game, make_strategy(name, pool=pool))
    assert walked_tree == tree
    assert np.array_equal(walked_depths, depths)


def _scorers(game):
    """The scorers that walk a game: the table, and the answers made from two words a code
    where the game allows."""
    return [TableScorer] + ([WordScorer] if scoring.word_layout(game) is not None else [])


@pytest.mark.parametrize("game_name, made", [(name, made.__name__) for name, game in GAMES.items()
                                             for made in _scorers(game)])
@pytest.mark.parametrize("name", WALKED)
def test_every_small_set_is_walked_as_the_heuristic_plays_it(game_name, made, name, monkeypatch):
    """Random sets of every size up to the walk's limit, and the subtree of each compared with
    the one the heuristic makes asked at every state, scoring every guess (a random set is not
    what any history leaves, so the classes of equivalent guesses of a history do not apply to
    it: the walk is told of guesses above that used every symbol, and only the symbols no secret
    holds are interchangeable); the depths written are the levels the secrets are solved at."""
    game = GAMES[game_name]
    scorer = getattr(scoring, made)(game)
    rng = np.random.default_rng(11)
    every_symbol = _covering(game)
    for pool in ("all", "consistent"):
        for count in (1, 2, 3, 5, 8, 14, 25, WALKED_FROM):
            secrets = np.sort(rng.choice(game.size, min(count, game.size), replace=False))
            depths = np.zeros(game.size, dtype=np.int64)
            guesses, answers, levels = scorer.walk(scoring.KINDS[name], pool == "consistent",
                                                   secrets, 3, depths, every_symbol)
            with monkeypatch.context() as patched:
                asked_at_every_state(patched)
                tree, expected = compile_tree(game, make_strategy(name, pool=pool, symmetry=False),
                                              below=(secrets, ((0, 0),)), scorer=scorer)
            assert _nodes(tree) == [(game.code_strings[g], None if a < 0 else game.feedback_texts[a],
                                     level) for g, a, level in zip(guesses, answers, levels)]
            assert np.array_equal(depths[secrets], expected[secrets] + 2)
            assert not depths[np.setdiff1d(np.arange(game.size), secrets)].any()


def _covering(game):
    """Guesses that together use every symbol."""
    found, seen = [], set()
    for index, code in enumerate(game.codes[:game.guess_count].tolist()):
        if not set(code) <= seen:
            found.append(index)
            seen |= set(code)
    return found


def test_the_walk_scores_one_guess_of_each_class_and_chooses_as_every_guess_would():
    """Within the walk, guesses that differ only by symbols no guess above used, or no secret
    holds, are scored once (the first of each class): the sets a history leaves (two guesses
    and their answers, at random) are walked to the same subtrees as when told of guesses that
    used every symbol, where only the symbols no secret holds are interchangeable."""
    for game in (Game.preset("mastermind"), Game.preset("bulls-and-cows"),
                 GAMES["pegs 3 x 7 without repeats"]):
        scorer = TableScorer(game)
        table = scorer.table()
        rng = np.random.default_rng(5)
        every_symbol, walked = _covering(game), 0
        while walked < 40:
            history = rng.choice(game.guess_count, 2, replace=False)
            secrets = np.arange(game.size)
            for guess in history:
                secrets = secrets[table[guess, secrets] == table[guess, rng.choice(secrets)]]
            if not 3 <= len(secrets) <= WALKED_FROM:
                continue
            walked += 1
            for name in WALKED:
                kind = scoring.KINDS[name]
                depths, plain = (np.zeros(game.size, dtype=np.int64) for _ in range(2))
                reduced = scorer.walk(kind, False, secrets, 3, depths, history.tolist())
                whole = scorer.walk(kind, False, secrets, 3, plain, every_symbol)
                assert all(np.array_equal(a, b) for a, b in zip(reduced, whole))
                assert np.array_equal(depths, plain)


def _nodes(tree, key=None, level=3):
    """A tree's nodes depth first, answers in index order: (guess, answer that leads there, level)."""
    found = [(tree["guess"], key, level)]
    for answer, child in tree["next"].items():
        found += _nodes(child, answer, level + 1)
    return found


def test_only_treegen_s_own_heuristics_outside_hard_mode_are_walked():
    game = GAMES["pegs 4 x 6"]
    assert [name for name in HEURISTICS if make_strategy(name).walked(game) is not None] == WALKED
    assert set(WALKED) == {"minimax", "expected", "parts", "entropy"}
    assert make_strategy("minimax").walked(Game("123456", 4, True, hard="strict")) is None
    assert make_strategy("simple").walked(game) is None

    class Mine(HEURISTICS["minimax"]):  # a strategy of one's own chooses for itself
        pass

    assert Mine().walked(game) is None


@pytest.mark.parametrize("game, first, whole", [(Game.preset("mastermind"), "1122", False),
                                              (GAMES["tiles on words"], None, True)])
def test_the_walk_is_what_plays_the_small_sets(game, first, whole, monkeypatch):
    """A build hands every set of up to WALKED_FROM secrets to the walk, and asks the heuristic
    only at the larger ones; in a game with no equivalent guesses, every set (the first guess
    is asked when it is given)."""
    walked, asked = [], []
    made = type(scoring.scorer_for(game))
    walk, choose = made.walk, Heuristic.choose

    def counting_walk(self, kind, consistent, secrets, level, depths, guessed=()):
        walked.append(len(secrets))
        return walk(self, kind, consistent, secrets, level, depths, guessed)

    def counting_choose(self, state):
        asked.append(len(state.candidates))
        return choose(self, state)

    monkeypatch.setattr(made, "walk", counting_walk)
    monkeypatch.setattr(Heuristic, "choose", counting_choose)
    compile_tree(game, make_strategy("minimax"), first=first)
    if whole:
        assert walked == [game.size] and asked == []
    else:
        assert walked and max(walked) <= WALKED_FROM
        assert asked and min(asked) > WALKED_FROM


# Walked from the codes (games too large for a score table) ------------------------------------

CODE_GAMES = {
    "pegs 4 x 6": Game("123456", 4, True),
    "pegs 3 x 7 without repeats": Game("1234567", 3, False),
    "black pegs 4 x 5": Game("12345", 4, True, rule="black"),
    "jotto 3 x 6": Game("123456", 3, True, rule="jotto"),
}


def _code_walks(game, pool):
    """Whether the scorer of the codes walks this game's sets (else it asks at every state)."""
    walked = CodeScorer(game, 1).walk(1, pool == "consistent", np.arange(3), 1,
                                      np.zeros(game.size, dtype=np.int64))
    return walked is not None


@pytest.mark.parametrize("game_name", CODE_GAMES)
@pytest.mark.parametrize("pool", ["all", "consistent"])
@pytest.mark.parametrize("name", WALKED)
def test_a_book_walked_from_the_codes_is_the_book_of_the_heuristic_asked_at_every_state(
        game_name, pool, name, monkeypatch):
    game = CODE_GAMES[game_name]
    walked_tree, walked_depths = compile_tree(game, make_strategy(name, pool=pool),
                                              scorer=CodeScorer(game, 1))
    with monkeypatch.context() as patched:
        asked_at_every_state(patched)
        tree, depths = compile_tree(game, make_strategy(name, pool=pool), scorer=CodeScorer(game, 1))
    assert walked_tree == tree
    assert np.array_equal(walked_depths, depths)


@pytest.mark.parametrize("game_name", CODE_GAMES)
@pytest.mark.parametrize("pool", ["all", "consistent"])
@pytest.mark.parametrize("name", WALKED)
def test_a_book_from_the_codes_is_the_book_from_the_score_table(game_name, pool, name):
    """Jotto's answers add the symbols in place to those in common: its keys over an alphabet
    are counted on its answers, not on the two counts."""
    game = CODE_GAMES[game_name]
    from_codes = compile_tree(game, make_strategy(name, pool=pool), scorer=CodeScorer(game, 1))
    for scorer in _scorers(game):
        from_table = compile_tree(game, make_strategy(name, pool=pool), scorer=scorer(game))
        assert from_codes[0] == from_table[0]
        assert np.array_equal(from_codes[1], from_table[1])


def test_the_codes_are_walked_where_every_guess_that_matters_is_a_code_over_an_alphabet():
    assert _code_walks(CODE_GAMES["pegs 4 x 6"], "all")
    assert _code_walks(CODE_GAMES["black pegs 4 x 5"], "all")
    assert not _code_walks(CODE_GAMES["pegs 3 x 7 without repeats"], "all")
    assert _code_walks(CODE_GAMES["pegs 3 x 7 without repeats"], "consistent")
    assert not _code_walks(CODE_GAMES["jotto 3 x 6"], "all")
    assert _code_walks(CODE_GAMES["jotto 3 x 6"], "consistent")
    assert not _code_walks(GAMES["tiles on words"], "consistent")


@pytest.mark.parametrize("game_name", ["pegs 4 x 6", "black pegs 4 x 5"])
@pytest.mark.parametrize("name", WALKED)
def test_every_small_set_is_walked_from_the_codes_as_the_heuristic_plays_it_scoring_every_guess(
        game_name, name, monkeypatch):
    """Random sets up to the walk's limit (whose alphabets are every symbol or a few), each
    subtree compared with the one the heuristic makes asked at every state scoring every guess
    (the walk told of guesses above that used every symbol, as a random set is what no history
    leaves), and the levels written into the depths."""
    game = CODE_GAMES[game_name]
    scorer = CodeScorer(game, 1)
    rng = np.random.default_rng(17)
    every_symbol = _covering(game)
    for pool in ("all", "consistent"):
        for count in (1, 2, 3, 5, 8, 14, 25, CODES_WALKED_UP_TO):
            few = rng.choice(len(game.symbols), 3, replace=False)  # sets over three symbols
            within = np.flatnonzero(np.isin(game.codes, few).all(axis=1))
            for source in (np.arange(game.size), within):
                secrets = np.sort(rng.choice(source, min(count, len(source)), replace=False))
                depths = np.zeros(game.size, dtype=np.int64)
                guesses, answers, levels = scorer.walk(scoring.KINDS[name], pool == "consistent",
                                                       secrets, 3, depths, every_symbol)
                with monkeypatch.context() as patched:
                    asked_at_every_state(patched)
                    tree, expected = compile_tree(
                        game, make_strategy(name, pool=pool, symmetry=False),
                        below=(secrets, ((0, 0),)), scorer=scorer)
                assert _nodes(tree) == [
                    (game.code_strings[g], None if a < 0 else game.feedback_texts[a], level)
                    for g, a, level in zip(guesses, answers, levels)]
                assert np.array_equal(depths[secrets], expected[secrets] + 2)
                assert not depths[np.setdiff1d(np.arange(game.size), secrets)].any()
    assert scorer.walk(1, False, np.arange(CODES_WALKED_UP_TO + 1), 1,
                       np.zeros(game.size, dtype=np.int64)) is None


@pytest.mark.parametrize("game", [Game("123456", 4, True), Game("12345", 4, True, rule="black"),
                                  Game("1234567", 4, True)], ids=str)
@pytest.mark.parametrize("name", WALKED)
def test_the_sets_a_history_leaves_are_walked_from_the_codes_as_every_guess_would_play_them(
        game, name, monkeypatch):
    """The sets two or three guesses leave are often kept by swaps of symbols or positions, so
    the walk from the codes scores one code of each pair such a swap joins: its subtrees are
    the heuristic's own, asked at every state and scoring every guess; a third of the sets or
    more were kept by some swap, so the rules were at work."""
    scorer = CodeScorer(game, 1)
    rng = np.random.default_rng(23)
    walked = kept = 0
    while walked < 20:
        secrets = np.arange(game.size)
        for guess in rng.choice(game.guess_count, rng.integers(2, 4), replace=False):
            answers = scorer.block(np.array([guess]), secrets)[0]
            secrets = secrets[answers == answers[rng.integers(len(secrets))]]
        if not 3 <= len(secrets) <= CODES_WALKED_UP_TO:
            continue
        walked += 1
        kept += _kept_by_a_swap(game, secrets)
        depths = np.zeros(game.size, dtype=np.int64)
        guesses, answers, levels = scorer.walk(scoring.KINDS[name], False, secrets, 3, depths)
        with monkeypatch.context() as patched:
            asked_at_every_state(patched)
            tree, expected = compile_tree(game, make_strategy(name, symmetry=False),
                                          below=(secrets, ((0, 0),)), scorer=scorer)
        assert _nodes(tree) == [
            (game.code_strings[g], None if a < 0 else game.feedback_texts[a], level)
            for g, a, level in zip(guesses, answers, levels)]
        assert np.array_equal(depths[secrets], expected[secrets] + 2)
    assert kept >= 5


def _kept_by_a_swap(game, secrets):
    """Whether swapping two symbols or two positions of every code keeps ``secrets``."""
    codes, inside = game.codes[secrets], set(secrets.tolist())
    weight = len(game.symbols) ** np.arange(game.length - 1, -1, -1)
    swaps = []
    for a, b in itertools.combinations(range(len(game.symbols)), 2):
        swapped = codes.copy()
        swapped[codes == a], swapped[codes == b] = b, a
        swaps.append(swapped)
    for p, q in itertools.combinations(range(game.length), 2):
        swaps.append(codes[:, [q if k == p else p if k == q else k for k in range(game.length)]])
    return any(set((swapped @ weight).tolist()) == inside for swapped in swaps
               if not np.array_equal(swapped, codes))


def test_a_build_from_the_codes_asks_only_the_sets_above_the_walk(monkeypatch):
    game = Game("1234567", 4, True)
    asked, choose = [], Heuristic.choose

    def counting_choose(self, state):
        asked.append(len(state.candidates))
        return choose(self, state)

    monkeypatch.setattr(Heuristic, "choose", counting_choose)
    compile_tree(game, make_strategy("entropy"), first="1123", scorer=CodeScorer(game, 1))
    assert asked and min(asked) > CODES_WALKED_UP_TO
