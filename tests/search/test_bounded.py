"""The bounded optimal search (--width, --exact-below): with every guess allowed it is the exact
search; narrower, it is never below the optimum and never above the heuristic it starts from; its
lower bound is never above the optimum. Checked against the exact search and brute force."""

import subprocess
import sys
from dataclasses import replace

import pytest

from tests.search.test_optimal import brute_force
from treegen.api import build_book
from treegen.book.format import dumps, summary
from treegen.book.replay import verify
from treegen.errors import StrategyError
from treegen.rules.game import Game
from treegen.search.options import SearchOptions

#: Run again on numba's JIT kernels in CI (see .ci/run).
pytestmark = pytest.mark.kernels

SMALL = [Game("ABCD", 3, True), Game("ABCDE", 3, False), Game("ABCDE", 2, True)]
#: Wider than any pool of these games: every guess is searched.
EVERY = 10_000


def bounded(game, width, exact_below, first=None, **options):
    search = SearchOptions(width=width, exact_below=exact_below, **options)
    return build_book(game, "optimal", first=first, search=search)


def test_with_every_guess_it_matches_brute_force():
    game = Game("ABCDE", 2, True)
    book = bounded(game, EVERY, 0)
    assert book["stats"]["total"] == book["strategy"]["lower_bound"] == brute_force(game)


@pytest.mark.parametrize("game", SMALL, ids=str)
@pytest.mark.parametrize("exact_below", [0, 8])
def test_with_every_guess_it_is_the_exact_optimum_and_proves_it(game, exact_below):
    book = bounded(game, EVERY, exact_below)
    optimum = build_book(game, "optimal")["stats"]["total"]  # itself checked by brute force
    assert book["stats"]["total"] == optimum
    assert book["strategy"]["lower_bound"] == optimum
    assert book["strategy"]["optimal"] is True
    assert verify(book) == []


@pytest.mark.parametrize("game", SMALL, ids=str)
@pytest.mark.parametrize("heuristic", ["entropy", "minimax"])
@pytest.mark.parametrize("width, exact_below", [(1, 0), (1, 6), (2, 0), (2, 12)])
def test_narrower_it_lies_between_the_optimum_and_the_heuristic(game, heuristic, width,
                                                                exact_below):
    book = bounded(game, width, exact_below, heuristic=heuristic)
    total, lower = book["stats"]["total"], book["strategy"]["lower_bound"]
    optimum = build_book(game, "optimal")["stats"]["total"]
    start = build_book(game, heuristic)["stats"]["total"]
    assert lower <= optimum <= total <= start
    assert book["strategy"]["optimal"] is (lower == total)
    assert verify(book) == []


def test_the_bound_is_sound_and_useful_on_mastermind():
    """Mastermind: the width-1 tree beats entropy's 5722 and the bound is below the optimum 5625
    (Koyama and Lai) yet well above level filling."""
    book = bounded("mastermind", 1, 300)
    total, lower = book["stats"]["total"], book["strategy"]["lower_bound"]
    assert 5625 <= total < build_book("mastermind", "entropy")["stats"]["total"]
    assert 5300 < lower <= 5625
    said = f"lower bound {lower} (the book's word): at most {total - lower} above the optimum"
    assert said in summary(book)


@pytest.mark.parametrize("width", [1, EVERY])
def test_in_hard_mode_it_keeps_to_the_rule_and_brackets_the_optimum(width):
    game = replace(Game("ABCDE", 3, False), hard=True)
    optimum = build_book(game, "optimal")["stats"]["total"]  # checked by brute force
    book = bounded(game, width, 8)
    assert verify(book) == [] and book["game"]["hard"] is True
    assert book["strategy"]["lower_bound"] <= optimum <= book["stats"]["total"]
    if width == EVERY:
        assert book["stats"]["total"] == book["strategy"]["lower_bound"] == optimum


def test_with_a_forced_first_guess_the_bound_is_the_optimum_after_it():
    game = Game("ABCD", 3, True)
    book = bounded(game, EVERY, 0, first="AAB")
    optimum = build_book(game, "optimal", first="AAB")["stats"]["total"]
    assert book["stats"]["total"] == book["strategy"]["after"]["lower_bound"] == optimum
    # a bound of the trees opening with AAB, never one of the game
    assert book["strategy"]["optimal"] is False and "lower_bound" not in book["strategy"]


def test_a_depth_limit_holds_in_the_bounded_search():
    game = Game("ABCD", 3, True)
    book = bounded(game, 2, 0, max_depth=4)
    assert book["stats"]["max"] <= 4
    optimum = build_book(game, "optimal", search=SearchOptions(max_depth=4))["stats"]["total"]
    assert book["strategy"]["lower_bound"] <= optimum <= book["stats"]["total"]


def test_books_are_deterministic_and_independent_of_jobs():
    one = bounded("mastermind", 2, 150, jobs=1)
    two = bounded("mastermind", 2, 150, jobs=2)
    assert dumps(one) == dumps(two)
    assert dumps(one) == dumps(bounded("mastermind", 2, 150, jobs=1))


@pytest.mark.parametrize("options, words", [
    ({"width": 0}, "width must be a whole number between 1"),
    ({"exact_below": 10}, "need --width"),
    ({"heuristic": "entropy"}, "need --width"),
    ({"width": 2, "heuristic": "simple"}, "unknown heuristic"),
])
def test_bad_bounded_options_are_one_line_errors(options, words):
    with pytest.raises(StrategyError, match=words):
        SearchOptions(**options)


def cli(*args, cwd):
    return subprocess.run([sys.executable, "-m", "treegen", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=600)


def test_the_command_names_the_file_and_prints_the_bound(tmp_path):
    done = cli("build", "--game", "mastermind", "-s", "optimal", "--width", "1", "--exact-below",
               "300", "-j", "1", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "mastermind-optimal-width1-below300-all.json").exists()
    assert "width 1, exact below 300" in done.stdout and "above the optimum" in done.stdout
    checked = cli("verify", "mastermind-optimal-width1-below300-all.json", cwd=tmp_path)
    assert checked.returncode == 0 and "lower bound" in checked.stdout


@pytest.mark.parametrize("args, words", [
    (["-s", "minimax", "--width", "2"], "apply to --strategy optimal only"),
    (["-s", "optimal", "--width", "2", "--heuristic", "simple"], "Invalid value for '--heuristic'"),
])
def test_misplaced_bounded_options_are_usage_errors(tmp_path, args, words):
    done = cli("build", "--game", "mastermind", *args, cwd=tmp_path)
    assert done.returncode == 2 and words in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_bounds_without_a_width_are_one_line_errors(tmp_path):
    done = cli("build", "--game", "mastermind", "-s", "optimal", "--exact-below", "10",
               cwd=tmp_path)
    assert done.returncode == 1 and "need --width" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and list(tmp_path.iterdir()) == []


def test_verify_refuses_a_lower_bound_above_the_books_own_total():
    book = bounded("mastermind", 1, 300)
    book["strategy"]["lower_bound"] = book["stats"]["total"] + 1
    assert any("lower_bound" in problem for problem in verify(book))


#: About three seconds of bounded search: long enough to be killed in the middle.
SLOW = ["--symbols", "1234567", "--length", "4", "--repetition", "-s", "optimal", "--width", "2",
        "--exact-below", "300", "-j", "1", "-o", "book.json"]


def test_a_killed_bounded_build_resumes_to_a_byte_identical_book(tmp_path):
    """Killed (SIGKILL, no chance to tidy up) once its fifth checkpoint is written: the
    checkpoint is taken up, and the book is the uninterrupted one."""
    import os
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    whole.mkdir()
    cut.mkdir()
    assert cli("build", *SLOW, cwd=whole).returncode == 0
    kept = cut / "book.json.checkpoint"
    env = {**os.environ, "TREEGEN_CHECKPOINT_SECONDS": "0", "TREEGEN_TEST_FAULT": "checkpoint:5:KILL"}
    killed = subprocess.run([sys.executable, "-m", "treegen", "build", *SLOW], cwd=cut, env=env,
                            capture_output=True, text=True, timeout=600)
    assert killed.returncode == -9, killed.stderr
    assert kept.exists() and not (cut / "book.json").exists(), "killed before or after the search"
    exact = subprocess.run([sys.executable, "-m", "treegen", "build", *SLOW[:5], "-s", "optimal",
                            "-o", "book.json", "--resume"], cwd=cut, capture_output=True, text=True,
                           timeout=600)
    assert exact.returncode == 1 and "is of another build (width" in exact.stderr, exact.stderr
    resumed = cli("build", *SLOW, "--resume", cwd=cut)
    assert resumed.returncode == 0, resumed.stderr
    assert (cut / "book.json").read_bytes() == (whole / "book.json").read_bytes()
    assert not kept.exists()
