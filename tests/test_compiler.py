
import dataclasses
import functools

import pytest

from treegen.api import build_book
from treegen.book.format import dumps
from treegen.book.replay import verify
from treegen.errors import StrategyError
from treegen.rules.game import Game


@pytest.mark.parametrize("game, strategy, pool, first, total, longest", [
    ("mastermind", "minimax", None, "1122", 5801, 5),             # Knuth 1976
    ("mastermind", "simple", None, None, 7471, 9),
    ("bulls-and-cows", "simple", None, None, 28024, 9),           # the Chinese document: 5.56, 9
    ("bulls-and-cows", "entropy", "consistent", None, 26781, 8),  # its "smart" solver: 5.31, 8
])
def test_published_totals(game, strategy, pool, first, total, longest):
    book = build_book(game, strategy, pool=pool, first=first)
    assert (book["stats"]["total"], book["stats"]["max"]) == (total, longest)
    assert verify(book) == []


def test_stats_describe_the_tree(mastermind_minimax):
    stats = mastermind_minimax["stats"]
    assert stats["secrets"] == 1296
    assert sum(stats["histogram"].values()) == 1296
    assert sum(int(d) * n for d, n in stats["histogram"].items()) == stats["total"]
    assert stats["average"] == round(stats["total"] / 1296, 4)


def test_first_guess_is_forced_and_recorded():
    book = build_book("mastermind", "minimax", first="1234")
    assert book["tree"]["guess"] == book["strategy"]["first"] == "1234"
    assert verify(book) == []


def test_builds_are_deterministic():
    game = Game("ABCDE", 3, False)
    for name in ("random", "entropy", "parts"):
        assert dumps(build_book(game, name)) == dumps(build_book(game, name))


def test_progress_counts_every_secret():
    seen = []
    build_book(Game("ABCD", 3, True), "minimax", progress=seen.append)
    assert sum(seen) == 64




def test_user_function_strategy(plugin):
    module = plugin("""
        def last(state):
            return state.codes[-1]
    """)
    game = Game("ABCD", 3, True)
    book = build_book(game, f"{module}:last")
    assert book["tree"]["guess"] == "DDD"
    assert book["strategy"] == {"name": f"{module}:last", "pool": "all", "first": "DDD"}
    assert verify(book) == []


def test_user_class_strategy_sees_history_and_partitions(plugin):
    module = plugin("""
        class Greedy:
            def __init__(self):
                self.calls = 0
            def choose(self, state):
                self.calls += 1
                for guess, fb in state.moves:
                    assert len(guess) == state.game.length and fb.endswith("B")
                # fewest secrets in the largest class, among the possible secrets
                return min(state.codes, key=lambda c: max(state.partition(c).values()))
    """)
    game = Game("ABCD", 3, True)
    ours = build_book(game, f"{module}:Greedy")
    builtin = build_book(game, "minimax", pool="consistent")
    assert ours["tree"] == builtin["tree"]


@pytest.mark.parametrize("source, message", [
    ("def s(state):\n    return 'ZZZ'\n", "guessed an invalid code at the start of the game"),
    ("def s(state):\n    return 10 ** 6\n", "returned code index 1000000 at the start of the game"),
    ("def s(state):\n    return [0]\n", r"returned \[0\] at the start of the game; it must return a code"),
    ("def s(state):\n    raise RuntimeError('boom')\n",
     "failed at the start of the game: RuntimeError: boom"),
    ("def s(state):\n    return 'AAA' if not state.moves else 'AAA'\n", "would never finish: AAA after AAA="),
    ("import random\ndef s(state):\n    return random.choice(state.codes)\n", "not deterministic"),
])
def test_misbehaving_user_strategies_are_named(plugin, source, message):
    module = plugin(source)
    with pytest.raises(StrategyError, match=message):
        build_book(Game("ABCD", 3, True), f"{module}:s")


def test_user_strategy_must_respect_pool_consistent(plugin):
    module = plugin("def s(state):\n    return 'AAA' if state.moves else 'ABC'\n")
    with pytest.raises(StrategyError, match="not a possible secret after ABC="):
        build_book(Game("ABCD", 3, True), f"{module}:s", pool="consistent")


def test_user_strategy_randomness_through_state_rng_is_reproducible(plugin):
    module = plugin("def s(state):\n    return state.rng.choice(state.codes)\n")
    game = Game("ABCD", 3, True)
    assert build_book(game, f"{module}:s", seed=1) == build_book(game, f"{module}:s", seed=1)


@pytest.mark.parametrize("spec, message", [
    ("no_such_module_xyz:s", "cannot import module 'no_such_module_xyz'"),
    ("json:nothing_here", "has no attribute 'nothing_here'"),
    ("json:", "must be written package.module:Name"),
])
def test_user_strategy_loading_errors(spec, message):
    with pytest.raises(StrategyError, match=message):
        build_book(Game("ABCD", 3, True), spec)


@pytest.mark.parametrize("game, strategy, pool, first", [
    ("mastermind", "minimax", None, None),
    ("mastermind", "entropy", "consistent", "1234"),
    ("bulls-and-cows", "expected", None, None),
    (Game("ABCDEF", 4, True, name="custom"), "parts", None, None),
    (Game("123456", 4, True, name="custom", hard=True), "minimax", None, None),
    ("word-hard", "entropy", None, None),
], ids=str)
def test_a_large_game_s_classes_built_by_workers_make_the_one_job_book(monkeypatch, tmp_path,
                                                                       game, strategy, pool,
                                                                       first):
    """With workers, the first guess's classes are built apart, one subtree per worker, and
    entered in order: the book is the one job's, held whole or written as it is built."""
    from treegen import compiler
    from treegen.api import build_file
    from treegen.rules.wordlists import wordle_lists
    from treegen.search.options import SearchOptions
    if game == "word-hard":  # Wordle's tiles and its hard mode, on 300 of its answers
        answers = wordle_lists()[0][:300]
        game = dataclasses.replace(Game.of_words(answers, answers), hard=True)
    alone = dumps(build_book(game, strategy, pool=pool, first=first))
    monkeypatch.setattr(compiler, "APART_FROM", 100)  # the workers are forked: they see it too
    monkeypatch.setattr("treegen.run.local.usable_cores", lambda: 2)  # on one core too
    asked = []
    real = compiler._walk_apart
    monkeypatch.setattr(compiler, "_walk_apart", lambda *a: asked.append(1) or real(*a))
    two = SearchOptions(jobs=2)
    assert dumps(build_book(game, strategy, pool=pool, first=first, search=two)) == alone
    build_file(tmp_path / "book.json", game, strategy, pool=pool, first=first, search=two)
    assert (tmp_path / "book.json").read_text(encoding="utf-8") == alone
    assert asked == [1, 1]


def test_the_workers_tell_the_progress_of_every_secret(monkeypatch):
    from treegen import compiler
    from treegen.search.options import SearchOptions
    monkeypatch.setattr(compiler, "APART_FROM", 100)
    monkeypatch.setattr("treegen.run.local.usable_cores", lambda: 2)
    seen = []
    build_book("mastermind", "minimax", progress=seen.append, search=SearchOptions(jobs=2))
    assert sum(seen) == 1296
    assert len(seen) > 20  # a share at a time as the workers go, not once at the end


def test_only_treegen_s_own_pure_strategies_are_built_apart():
    from treegen.compiler import APART_FROM, shares_work
    from treegen.registry import strategy_for
    from treegen.search.options import Build
    from treegen.strategies.user import UserStrategy
    big = Game("0123456789", 4, True, name="custom")
    assert big.size >= APART_FROM
    assert shares_work(big, strategy_for(Build(big, "entropy")))
    assert shares_work(big, strategy_for(Build(big, "random")))
    assert not shares_work(Game("ABCDEF", 4, True), strategy_for(Build(big, "entropy")))
    assert not shares_work(big, UserStrategy(lambda state: 0))


def test_a_build_of_one_job_has_no_workers(monkeypatch):
    from treegen import api, compiler
    from treegen.search.options import Build, SearchOptions
    monkeypatch.setattr(compiler, "APART_FROM", 100)
    assert api._executor(Build("mastermind", "minimax")) is None
    assert api._executor(Build("mastermind", "minimax", search=SearchOptions(jobs=1))) is None
    assert api._executor(Build("mastermind", "optimal", search=SearchOptions(jobs=2))) is None
    assert api._executor(Build("mastermind", "minimax", search=SearchOptions(jobs=2))) is not None


def test_the_parent_of_a_build_s_workers_scores_on_one_thread(monkeypatch):
    """Its workers are the build's parallelism: threads in the parent would only start numba's."""
    from treegen import compiler
    from treegen.rules.scoring import CodeScorer, TableScorer
    from treegen.search.options import SearchOptions
    monkeypatch.setattr(compiler, "APART_FROM", 100)
    monkeypatch.setattr("treegen.run.local.usable_cores", lambda: 2)
    seen = []
    real = compiler._walk_apart
    monkeypatch.setattr(compiler, "_walk_apart", lambda *a: seen.append(a[5]) or real(*a))
    game = Game("ABCDE", 4, True)
    monkeypatch.setattr("treegen.rules.scoring.uses_table", lambda *a: False)
    build_book(game, "minimax", search=SearchOptions(jobs=2))
    assert isinstance(seen[0], CodeScorer) and seen[0].threads == 1
    table = TableScorer(game)
    assert table.alone() is table


@pytest.mark.parametrize("kind", ["table", "codes"])
def test_a_scorer_sent_to_a_worker_travels_as_its_recipe_and_is_made_there_once(kind):
    """A worker gets the parent's scorer: its pickle holds the game, not the table, and each
    worker process makes it once for every set of the same game it builds."""
    import pickle

    import numpy as np

    from treegen.rules.scoring import CodeScorer, TableScorer
    game = Game("ABCDEF", 4, True)
    scorer = TableScorer(game) if kind == "table" else CodeScorer(game, 1)
    sent = pickle.dumps(scorer)
    assert len(sent) < len(pickle.dumps(game)) + 500
    first, second = pickle.loads(sent), pickle.loads(sent)
    assert first is second and first is not scorer and type(first) is type(scorer)
    assert getattr(first, "threads", 1) == 1
    assert np.array_equal(first.counts(None, np.arange(20)), scorer.counts(None, np.arange(20)))
    other = pickle.loads(pickle.dumps(TableScorer(Game("ABCDEF", 3, True))))
    assert other is not first and other.game.length == 3


@pytest.mark.parametrize("game, strategy, first", [
    ("mastermind", "minimax", None), ("bulls-and-cows", "entropy", "0123"),
], ids=str)
def test_a_class_too_large_for_one_worker_s_share_is_split_here(monkeypatch, game, strategy,
                                                                first):
    """A class above 1/(SHARES x workers) of the game has its own guess decided by the parent and
    its classes handed out: the parent asks the strategy more than once, the book is the same."""
    from treegen import compiler
    from treegen.search.options import SearchOptions
    alone = dumps(build_book(game, strategy, first=first))
    monkeypatch.setattr(compiler, "APART_FROM", 100)
    monkeypatch.setattr(compiler, "SHARES", 1000)  # every class above WALKED_FROM secrets
    monkeypatch.setattr("treegen.run.local.usable_cores", lambda: 2)
    asked = []
    real = compiler.chosen
    monkeypatch.setattr(compiler, "chosen", lambda s, state: asked.append(state) or real(s, state))
    assert dumps(build_book(game, strategy, first=first, search=SearchOptions(jobs=2))) == alone
    here = [state for state in asked if len(state.candidates) > compiler.WALKED_FROM]
    assert len(here) >= 2 and len(here) == len(asked)  # sets above the limit only, besides none


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_large_game_names_the_codes_of_its_book_without_listing_every_code(monkeypatch, jobs):
    """Above :data:`NAMES_LISTED_UP_TO` codes a game names only the codes asked for, from their
    symbols (8 x 6's list of every name took 116 MB in each process of a build): the book is
    the one of a game that lists them, and no process makes the list."""
    from treegen import compiler
    from treegen.rules import game as rules_game
    from treegen.search.options import SearchOptions
    alone = dumps(build_book(Game("1234567", 4, True), "minimax", first="1123"))
    monkeypatch.setattr(rules_game, "NAMES_LISTED_UP_TO", 100)  # forked workers see it too
    monkeypatch.setattr(compiler, "APART_FROM", 100)
    monkeypatch.setattr("treegen.run.local.usable_cores", lambda: 2)
    def listing(game: Game) -> list[str]:  # raised in a worker, it fails the build here too
        raise AssertionError(f"the list of every name of {game.size} codes was made")
    monkeypatch.setattr(Game, "code_strings", functools.cached_property(listing))
    Game.code_strings.__set_name__(Game, "code_strings")
    game = Game("1234567", 4, True)
    book = build_book(game, "minimax", first="1123", search=SearchOptions(jobs=jobs))
    assert dumps(book) == alone
    assert "_index" not in vars(game)
    assert game.code_names([0, 2400, 1]) == ["1111", "7777", "1112"]
    assert [game.index(game.code_name(i)) for i in (0, 1, 900, 2400)] == [0, 1, 900, 2400]
