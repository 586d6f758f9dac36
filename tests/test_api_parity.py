"""The Python API does what the CLI does: a function or a Book method for every command, strategies
as plain functions or returning codes, reprs that say what a thing is, help() on the public API."""

import contextlib
import io
import subprocess
import sys

import numpy as np
import pytest
from click.testing import CliRunner

import treegen
from treegen.cli.main import main
from treegen.errors import StrategyError

#: Each CLI command and where the API does the same.
PARITY = {
    "build": "build", "verify": "Book.verify", "stats": "compare", "render": "Book.render",
    "export": "Book.export", "site": "site", "play": "Book.player", "challenge": "Codemaker",
    "partitions": "partitions", "next": "advise", "classes": "solve_classes", "games": "Game.preset",
    "strategies": "BUILTIN", "graft": None, "books": None, "certify": "Book.certify",
}
#: Commands that stay on the command line, and why: both work on files of the library.
CLI_ONLY = {"graft": "swaps a record file's trees into a book file",
            "books": "maintains the library folder"}


def test_every_cli_command_has_its_api_counterpart():
    commands = set(main.list_commands(None))
    assert commands == set(PARITY)
    for command, name in PARITY.items():
        if name is None:
            assert command in CLI_ONLY
            continue
        owner, _, attribute = name.partition(".")
        value = getattr(treegen, owner)
        if attribute:
            value = getattr(value, attribute)
        assert owner in treegen.__all__ and value is not None, command


def test_score_matches_the_players_feedback_and_checks_codes_against_a_game():
    assert treegen.score("1122", "3632") == "1A0B"
    assert treegen.score("0123", "3210", "bulls-and-cows") == "0A4B"
    assert treegen.score("1234", "1234") == "4A0B"
    with pytest.raises(treegen.CodeError, match="same length"):
        treegen.score("123", "1234")
    with pytest.raises(treegen.CodeError):
        treegen.score("0012", "0123", "bulls-and-cows")  # a repeat in a game without repeats


def test_book_moves_replays_a_secret_as_the_player_does(mastermind_minimax):
    book = treegen.Book(mastermind_minimax)
    for secret in ("3632", "1122", "6666", "1234"):
        moves = book.moves(secret)
        player = book.player()
        for guess, answer in moves:
            assert player.guess == guess and treegen.score(guess, secret) == answer
            player.answer(answer)
        assert player.solved and moves[-1] == (secret, "4A0B")
    assert len(book.moves("3632")) <= book.stats["max"]
    with pytest.raises(treegen.CodeError):
        book.moves("7777")


def test_book_graph_export_and_compare(mastermind_minimax, tmp_path):
    book = treegen.Book(mastermind_minimax)
    graph = book.to_networkx()
    leaves = [n for n, d in graph.nodes(data=True) if d["leaf"]]
    assert graph.graph["strategy"] == "minimax" and len(leaves) > 0
    assert book.export(tmp_path / "b.graphml") == "graphml"
    assert (tmp_path / "b.graphml").read_text(encoding="utf-8").startswith("<?xml")
    other = treegen.build("mastermind", "entropy")
    table = treegen.compare([book, other])
    assert table.splitlines()[1].split()[:3] == ["mastermind-minimax-all", "mastermind", "minimax"]
    assert "5722" in table.splitlines()[2]
    assert treegen.compare({"mine": book}).splitlines()[1].startswith("mine ")
    with pytest.raises(treegen.BookError, match="not a Book"):
        treegen.compare([mastermind_minimax])


def test_custom_games_are_named_by_their_rules_in_stats_and_summaries(tmp_path):
    book = treegen.build(treegen.Game("ABCDE", 3, True), "minimax")
    assert book.summary().startswith("3 of ABCDE with repeats minimax")
    book.save(tmp_path / "b.json")
    out = CliRunner().invoke(main, ["stats", str(tmp_path / "b.json")]).output
    assert "3 of ABCDE with repeats" in out.splitlines()[1]


def test_partitions_match_the_cli_and_read_moves_either_way():
    rows = treegen.partitions("mastermind", "1122=1A0B")
    assert rows == treegen.partitions("mastermind", [("1122", "1A0B")])
    assert sum(rows[0]["counts"].values()) == 256
    assert treegen.partitions("mastermind")[0]["guesses"] >= 1


def test_site_writes_an_index_page(mastermind_minimax, tmp_path):
    index = treegen.site({"knuth": treegen.Book(mastermind_minimax)}, tmp_path / "site")
    with open(index, encoding="utf-8") as page:
        assert "knuth" in page.read()


def test_a_challenge_is_a_codemaker():
    maker = treegen.Codemaker(treegen.Game.preset("mastermind"), secret="3632")
    assert maker.answer("1122") == "1A0B" and maker.remaining() == 256
    assert repr(maker) == "<Codemaker mastermind: codemaker, 1 guesses answered, 256 secrets fit>"


def first_possible(state):
    return state.codes[0]


class ByIndex(treegen.Strategy):
    name = "by-index"

    def choose(self, state):
        return state.candidates[0]  # a numpy integer, as a strategy reading the arrays returns


def test_strategies_may_be_functions_and_may_return_codes_or_indices():
    function = treegen.build("mastermind", first_possible)
    by_index = treegen.build("mastermind", ByIndex(pool="consistent"))
    simple = treegen.build("mastermind", "simple")
    assert function.tree == by_index.tree == simple.tree
    assert function.strategy["name"] == "first_possible"


@pytest.mark.parametrize("answer, message", [
    (None, "returned None at the start of the game; it must return a code string or a code index"),
    (1296, "returned code index 1296 at the start of the game; the game's guesses are numbered 0 to 1295"),
    (-1, "returned code index -1"),
    (True, "returned True"),
    ("7777", "guessed an invalid code at the start of the game"),
    (np.float64(3), "returned np.float64"),
])
def test_a_wrong_answer_is_one_line_naming_the_state(answer, message):
    with pytest.raises(StrategyError, match="^strategy .*" + message.replace("(", r"\(")) as info:
        treegen.build("mastermind", lambda state: answer)
    assert "\n" not in str(info.value)


def test_a_failing_strategy_function_is_one_line_naming_the_state():
    def late(state):
        if state.history:
            raise ValueError("no idea")
        return "1122"
    with pytest.raises(StrategyError, match=r"strategy .*late failed after 1122=0A0B: ValueError: no idea"):
        treegen.build("mastermind", late)


def test_reprs_say_what_a_thing_is(mastermind_minimax):
    book = treegen.Book(mastermind_minimax)
    assert repr(book).startswith("<Book mastermind minimax (pool all, first 1122)")
    player = book.player()
    assert repr(player) == "<Player mastermind minimax: 0 answers, next guess 1122>"
    player.answer("1A0B")
    assert repr(player) == "<Player mastermind minimax: 1 answers, next guess 1344>"
    seen = []
    treegen.build("mastermind", lambda state: seen.append(repr(state)) or state.codes[0])
    assert seen[0] == "<State of mastermind at the start of the game: 1296 secrets possible>"


def test_help_shows_the_public_api_only():
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        help(treegen)
    sections, current = {}, None
    for line in text.getvalue().splitlines():
        if line and not line.startswith(" "):
            current = sections.setdefault(line.strip(), [])
        elif current is not None and line.startswith("    ") and not line.startswith("     "):
            current.append(line.strip())
    shown = {line.removeprefix("class ").split("(")[0].split(" = ")[0]
             for part in ("CLASSES", "FUNCTIONS", "DATA") for line in sections.get(part, [])}
    shown = {name for name in shown if not name.startswith("__")}  # pydoc shows every dunder
    shown = {name for name in shown if name and not name.startswith("builtins.")}  # class roots
    assert shown <= set(treegen.__all__)
    assert {"Book", "build", "score", "compare", "site", "partitions", "Codemaker"} <= shown


def test_a_notebook_shows_progress_by_default():
    code = (
        "import sys, types\n"
        "class ZMQInteractiveShell: pass\n"
        "ipython = types.ModuleType('IPython'); shell = ZMQInteractiveShell()\n"
        "ipython.get_ipython = lambda: shell; sys.modules['IPython'] = ipython\n"
        "import treegen\n"
        "treegen.build('mastermind', 'optimal', search=treegen.SearchOptions(jobs=1))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.rstrip().endswith("1296/1296 secrets solved")
    plain = subprocess.run([sys.executable, "-c", "import treegen; treegen.build('mastermind')"],
                           capture_output=True, text=True, check=True)
    assert plain.stdout == ""
