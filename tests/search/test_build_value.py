"""A build is one value, checked once where it is made and passed whole: the CLI, the front door,
the registry and the optimal search read the same :class:`Build`; the command line's choices come
from the tables they name; the scoring kernels' Python entries take one :class:`Codes` value."""

from __future__ import annotations

import inspect

import numpy as np
import pytest
from click.testing import CliRunner

from treegen import book as books
from treegen.api import build_book, compile_book
from treegen.cli.main import build as build_command
from treegen.cli.main import classes as classes_command
from treegen.cli.main import main
from treegen.cli.support import SEARCH_OPTIONS
from treegen.errors import CodeError, GameError, StrategyError
from treegen.player import HARD_MODES
from treegen.registry import strategy_for
from treegen.rules import scoring
from treegen.rules.game import Game
from treegen.rules.scoring import CodeScorer, TableScorer
from treegen.search.options import ENGINES, Build, SearchOptions
from treegen.search.strategy import Optimal
from treegen.strategies.base import POOLS
from treegen.strategies.heuristics import HEURISTICS

SMALL = Game("ABC", 2, True)


@pytest.mark.parametrize("kwargs, error, words", [
    ({"game": 3}, GameError, "game must be a Game"),
    ({"strategy": 4}, StrategyError, "strategy must be a name"),
    ({"pool": "some"}, StrategyError, "pool"),
    ({"seed": "x"}, StrategyError, "seed must be a whole number"),
    ({"seed": True}, StrategyError, "seed must be a whole number"),
    ({"symmetry": "yes"}, StrategyError, "symmetry must be true or false"),
    ({"first": "ZZ"}, CodeError, ""),
    ({"search": {"jobs": 2}}, StrategyError, "search options must be a SearchOptions"),
    ({"search": SearchOptions(max_depth=3)}, StrategyError, "apply to the optimal search only"),
])
def test_a_bad_build_is_refused_in_one_line_where_it_is_made(kwargs, error, words):
    given = {"game": SMALL, **kwargs}
    with pytest.raises(error) as caught:
        Build(given.pop("game"), **given)
    assert words in str(caught.value) and "\n" not in str(caught.value)


def test_a_build_holds_its_values_checked_and_the_search_s_defaults():
    made = Build("mastermind", "optimal", first="1122")
    assert made.game == Game.preset("mastermind") and made.first == "1122"
    assert made.searches and made.search == SearchOptions() and made.scorer() is None
    plain = Build(SMALL, "minimax", search=SearchOptions(memory=1))
    assert not plain.searches and isinstance(plain.scorer(), CodeScorer)
    assert Build(SMALL, "minimax").scorer() is None  # the compiler chooses
    assert repr(made) == "Build('mastermind', 'optimal', first='1122', search=SearchOptions())"


def test_the_optimal_search_is_made_from_the_build_whole():
    made = Build(SMALL, "optimal", search=SearchOptions(max_depth=4))
    strategy = strategy_for(made)
    assert isinstance(strategy, Optimal) and strategy.search_options is made.search
    assert strategy.executor.jobs == 1
    assert len(inspect.signature(Optimal.__init__).parameters) == 4  # self, build, status, executor


def test_the_front_door_s_keywords_and_the_value_build_the_same_book():
    made = Build(SMALL, "entropy", first="AB")
    assert books.dumps(compile_book(made)) == books.dumps(build_book(SMALL, "entropy", first="AB"))


def test_the_command_line_s_choices_come_from_the_tables():
    params = {p.name: p for p in build_command.params}
    assert list(params["engine"].type.choices) == list(ENGINES)
    assert list(params["heuristic"].type.choices) == list(HEURISTICS)
    assert list(params["pool"].type.choices) == list(POOLS)
    flags = {opt for p in build_command.params for opt in p.opts}
    assert {mode.flag for mode in HARD_MODES.values()} <= flags


def test_the_search_options_are_declared_once_and_shared():
    """build and classes take the same declarations: the same help for the same option."""
    for command in (build_command, classes_command):
        for param in command.params:
            if param.name in SEARCH_OPTIONS:
                declared = SEARCH_OPTIONS[param.name](lambda: None).__click_params__[0]
                assert param.opts == declared.opts and param.help == declared.help


def test_two_hard_modes_are_a_usage_error():
    result = CliRunner().invoke(main, ["build", "--hard", "--hints", "-s", "minimax"])
    assert result.exit_code == 2 and "--hard and --hints are two hard modes" in result.output


def test_the_scoring_kernels_take_one_codes_value():
    scorer = CodeScorer(Game("123456", 4, True), threads=1)
    game = scorer.codes
    assert isinstance(game, scoring.Codes) and game.nfb == scorer.nfb
    guesses, secrets = np.arange(40, dtype=np.int64), np.arange(0, 1296, 7, dtype=np.int64)
    table = TableScorer(scorer.game)
    assert np.array_equal(scoring.block(game, guesses, secrets), table.block(guesses, secrets))
    steps = np.diff(np.arange(len(secrets) + 1) * np.log(np.maximum(np.arange(len(secrets) + 1), 1)))
    sizes, _ = scoring.scan(game, scoring.KINDS["counts"], guesses, secrets, steps)
    assert np.array_equal(sizes, table.counts(guesses, secrets))
    assert len(inspect.signature(scoring.scan).parameters) <= 7
    assert len(inspect.signature(scoring.scan_alphabet).parameters) <= 8
    with pytest.raises(GameError):
        scoring.Codes.of(9, game.codes, game.lut, game.nfb)


def test_a_built_in_s_name_in_any_case_is_one_build_and_one_strategy():
    """``Optimal`` is the optimal search: its build has the search's options and its strategy is
    made from them, not as a heuristic is."""
    made = Build(SMALL, " Optimal")
    assert made.strategy == "optimal" and made.searches and made.search == SearchOptions()
    assert isinstance(strategy_for(made), Optimal)
    assert books.dumps(build_book(SMALL, "Optimal")) == books.dumps(build_book(SMALL, "optimal"))
    assert Build(SMALL, "pkg.mod:Name").strategy == "pkg.mod:Name"  # Python's names are cased
