"""The front door: what ``import treegen`` offers, and the README's Python example as written."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

import treegen
from tests.helpers.ci import requires_binary
from treegen.errors import BookError

README = Path(__file__).resolve().parent.parent / "README.md"


def test_the_exported_names_are_pinned():
    assert sorted(treegen.__all__) == sorted([
        "__version__", "Book", "build", "build_file", "load", "loads", "Game", "Strategy", "State", "BUILTIN",
        "make_strategy", "verify", "solve_classes", "Player", "PlayerError", "MalformedAnswer",
        "ImpossibleAnswer", "score", "compare", "partitions", "site", "Codemaker",
        "ImpossibleError",
        "NoSuchBranch", "format_feedback", "parse_feedback", "parse_moves", "format_moves",
        "BookData", "Node", "Stats", "History", "TreegenError", "GameError", "CodeError",
        "StrategyError", "BookError", "WriteError", "PathError", "RenderError",
        "CertificateError", "Proven", "check_certificate", "SearchOptions", "advise", "Advice",
        "load_preset"])
    # one list: every exported name is one the package loads lazily, and no other
    assert sorted(treegen.__all__) == sorted([*treegen._EXPORTS, "__version__"])
    for name in treegen.__all__:
        assert getattr(treegen, name) is not None, name
    assert callable(treegen.verify) and issubclass(treegen.BookError, treegen.TreegenError)
    # one family: the player's errors (defined in its standard-library file) are treegen's, and
    # the errors of records, grafts and impossible searches live with the rest
    from treegen import errors, player
    for name in ("PlayerError", "MalformedAnswer", "ImpossibleAnswer", "NoSuchBranch"):
        assert getattr(treegen, name) is getattr(player, name) is getattr(errors, name)
        assert issubclass(getattr(treegen, name), treegen.TreegenError)
    assert treegen.TreegenError is player.TreegenError is errors.TreegenError
    assert {"RecordError", "GraftError", "ImpossibleError"} <= set(errors.__all__)


def test_importing_treegen_loads_nothing_heavy_and_ships_its_types():
    code = ("import sys, treegen; print(sorted({'numpy', 'click', 'networkx', 'graphviz', "
            "'treegen.game'} & set(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
    assert (Path(treegen.__file__).parent / "py.typed").exists()


def test_readme_python_api_runs_as_written(tmp_path):
    section = README.read_text(encoding="utf-8").split("## Python API", 1)[1].split("\n## ", 1)[0]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert len(code.strip().splitlines()) <= 14
    (tmp_path / "example.py").write_text(code)
    out = subprocess.run([sys.executable, "example.py"], cwd=tmp_path, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    assert "total 5801, average 4.4761, max 5" in out.stdout
    assert (tmp_path / "knuth.json").exists() and (tmp_path / "knuth.dot").read_text().startswith("digraph")


def test_a_book_is_a_value():
    book = treegen.build(treegen.Game("ABC", 2, True), "minimax")
    same = treegen.loads(book.dumps())
    assert same == book and same is not book and repr(book).startswith("<Book 2 of ABC with repeats minimax")
    assert book.game == treegen.Game("ABC", 2, True) and book.tree["guess"] == book.strategy["first"]
    assert book.player().guess == book.strategy["first"]
    with pytest.raises(BookError, match="not a treegen book"):
        treegen.Book({"format": "other"})


@requires_binary("dot")
def test_a_book_shows_itself_as_a_picture_in_a_notebook():
    book = treegen.build(treegen.Game("ABC", 2, True), "minimax")
    svg = book._repr_svg_()
    assert svg is not None and svg.lstrip().startswith(("<?xml", "<svg")) and "</svg>" in svg


@pytest.mark.parametrize("call, error", [
    (lambda: treegen.build(game=5), treegen.GameError),
    (lambda: treegen.build("mastermind", 3.5), treegen.StrategyError),
    (lambda: treegen.parse_moves(None), treegen.CodeError),
    (lambda: treegen.format_feedback("1A2B"), treegen.CodeError),
    (lambda: treegen.format_feedback((1, -2)), treegen.CodeError),
    (lambda: treegen.SearchOptions(memory=10 ** 30), treegen.StrategyError),
    (lambda: treegen.SearchOptions(memory=0), treegen.StrategyError),
    (lambda: treegen.SearchOptions(jobs=0), treegen.StrategyError),
    (lambda: treegen.SearchOptions(max_depth=0), treegen.StrategyError),
    (lambda: treegen.SearchOptions(max_depth=10 ** 20), treegen.StrategyError),
    (lambda: treegen.SearchOptions(jobs="2"), treegen.StrategyError),
    (lambda: treegen.SearchOptions(exact_below=300), treegen.StrategyError),
    (lambda: treegen.build("mastermind", "optimal", search={"jobs": 1}), treegen.StrategyError),
    (lambda: treegen.build("mastermind", "minimax", search=treegen.SearchOptions(max_depth=5)),
     treegen.StrategyError),
    (lambda: treegen.solve_classes("mastermind", "1122", "/nonexistent/r.json",
                                   search={"max_depth": 5}), treegen.StrategyError),
])
def test_wrong_types_and_values_are_treegen_errors(call, error):
    with pytest.raises(error) as caught:
        call()
    assert len(str(caught.value).splitlines()) == 1


def test_a_tree_that_repeats_or_loops_is_refused_at_once(mastermind_minimax):
    import copy
    looped = copy.deepcopy(mastermind_minimax)
    child = next(iter(looped["tree"]["next"].values()))
    child["next"]["0A0B"] = looped["tree"]  # a cycle
    shared = copy.deepcopy(mastermind_minimax)
    first, second = list(shared["tree"]["next"])[:2]
    shared["tree"]["next"][second] = shared["tree"]["next"][first]
    for data in (looped, shared):
        with pytest.raises(BookError, match="appears twice"):
            treegen.Book(data)
        with pytest.raises(treegen.PlayerError, match="appears twice"):
            treegen.Player(data)
        assert "appears twice" in treegen.verify(data)[0]


def test_a_book_save_cannot_write_is_refused(mastermind_minimax, tmp_path):
    import copy
    for change in ({"name": "\ud800"}, {"extra": float("nan")}):
        data = copy.deepcopy(mastermind_minimax)
        data["strategy"].update(change)
        with pytest.raises(BookError):
            treegen.Book(data)


def test_a_depth_limit_of_as_many_guesses_as_codes_is_no_limit():
    book = treegen.build(treegen.Game("ABC", 3, True), "optimal",
                         search=treegen.SearchOptions(max_depth=27))
    assert book.stats == treegen.build(treegen.Game("ABC", 3, True), "optimal").stats
    assert book.strategy["max_depth"] == 27


def test_a_heuristic_takes_memory_and_jobs_and_builds_the_same_book_without_its_table():
    """A memory budget too small for the score table scores from the codes: the same book."""
    small = treegen.build("mastermind", "entropy", search=treegen.SearchOptions(memory=1000, jobs=1))
    assert small == treegen.build("mastermind", "entropy")
