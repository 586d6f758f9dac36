from dataclasses import replace
from functools import cache

import numpy as np
import pytest

from treegen.api import build_book
from treegen.book.format import dumps, feedback
from treegen.book.replay import game_codes, verify
from treegen.errors import ImpossibleError
from treegen.rules.game import Game
from treegen.run.local import Pool
from treegen.run.seam import ClassTask
from treegen.search.bounds import level_bounds
from treegen.search.exact import Search
from treegen.search.options import SearchOptions
from treegen.search.tasks import Tasks

#: Run again on numba's JIT kernels in CI (see .ci/run).
pytestmark = pytest.mark.kernels


def brute_force(game, max_depth=None, first=None, hard=False):
    """Minimum total guesses by plain exhaustive search over every code at every node (in hard
    mode, every code that gives every answer so far: in these games, the secrets left)."""
    codes = game_codes(game.to_dict())
    solved = (game.length, 0)
    infinite = float("inf")

    def split(guess, secrets):
        classes = {}
        for s in secrets:
            fb = feedback(guess, s)
            if fb != solved:
                classes.setdefault(fb, []).append(s)
        return [frozenset(c) for c in classes.values()]

    @cache
    def cost(secrets, left):
        if left is not None and left <= 0:
            return infinite
        if len(secrets) == 1:
            return 1
        best = infinite
        for guess in sorted(secrets) if hard else codes:
            classes = split(guess, secrets)
            if len(classes) == 1 and len(classes[0]) == len(secrets):
                continue  # no progress
            total = len(secrets) + sum(cost(c, None if left is None else left - 1) for c in classes)
            best = min(best, total)
        return best

    everything = frozenset(codes)
    if first is None:
        return cost(everything, max_depth)
    left = None if max_depth is None else max_depth - 1
    return len(codes) + sum(cost(c, left) for c in split(first, everything))


SMALL = [Game("ABCD", 3, False), Game("ABC", 3, True), Game("ABCDE", 2, True), Game("ABCD", 3, True)]


@pytest.mark.parametrize("game", SMALL, ids=str)
def test_optimal_total_matches_brute_force(game):
    book = build_book(game, "optimal")
    assert book["stats"]["total"] == brute_force(game)
    assert verify(book) == []
    assert book["strategy"]["optimal"] is True and book["strategy"]["max_depth"] is None


@pytest.mark.parametrize("game, depth, possible", [(Game("ABCD", 3, False), 3, False),
                                                   (Game("ABCD", 3, False), 4, True),
                                                   (Game("ABC", 3, True), 3, False),
                                                   (Game("ABC", 3, True), 4, True)], ids=str)
def test_depth_limited_optimum_matches_brute_force(game, depth, possible):
    expected = brute_force(game, depth)
    assert (expected != float("inf")) is possible
    if not possible:
        with pytest.raises(ImpossibleError, match=f"in at most {depth} guesses"):
            build_book(game, "optimal", search=SearchOptions(max_depth=depth))
        return
    book = build_book(game, "optimal", search=SearchOptions(max_depth=depth))
    assert book["stats"]["total"] == expected and book["stats"]["max"] <= depth
    assert book["strategy"]["max_depth"] == depth


@pytest.mark.parametrize("game", SMALL, ids=str)
def test_hard_mode_optimum_matches_brute_force(game):
    hard = replace(game, hard=True)
    book = build_book(hard, "optimal")
    free = build_book(game, "optimal")["stats"]["total"]
    assert book["stats"]["total"] == brute_force(game, hard=True) >= free
    assert verify(book) == [] and book["game"]["hard"] is True
    first = game.code_strings[-1]  # a forced first guess: hard mode allows any
    forced = build_book(hard, "optimal", first=first)
    assert forced["stats"]["total"] == brute_force(game, first=first, hard=True)


def test_hard_mode_books_are_deterministic_and_independent_of_jobs(monkeypatch):
    game = replace(Game("ABCDEF", 3, False), hard=True)  # large classes: tried side by side too
    one = dumps(build_book(game, "optimal"))
    assert one == dumps(build_book(game, "optimal"))
    calls = []
    side_by_side = Search._side_by_side
    monkeypatch.setattr(Search, "_side_by_side",
                        lambda self, task, *rest: calls.append(len(task.cands)) or
                        side_by_side(self, task, *rest))
    assert dumps(build_book(game, "optimal", search=SearchOptions(jobs=2))) == one and calls


def test_forced_first_guess_is_optimal_after_it():
    game = Game("ABC", 3, True)
    for first in ("AAA", "ABC"):
        book = build_book(game, "optimal", first=first)
        assert book["tree"]["guess"] == first
        assert book["stats"]["total"] == brute_force(game, first=first)


def test_mastermind_optimum_is_koyama_and_lai():
    book = build_book("mastermind", "optimal")
    assert (book["stats"]["total"], book["stats"]["max"]) == (5625, 6)
    assert verify(book) == []


def test_mastermind_in_four_guesses_is_impossible():
    message = "impossible: no strategy solves every mastermind secret in at most 4"
    with pytest.raises(ImpossibleError, match=message):
        build_book("mastermind", "optimal", search=SearchOptions(max_depth=4))


def test_optimal_books_are_deterministic_and_independent_of_jobs():
    game = Game("ABCD", 3, True)
    one = dumps(build_book(game, "optimal"))
    assert one == dumps(build_book(game, "optimal"))
    assert one == dumps(build_book(game, "optimal", search=SearchOptions(jobs=2)))


def test_large_classes_try_their_guesses_side_by_side_with_the_same_book(monkeypatch):
    game = Game("ABCDEF", 3, False)  # 120 codes: a class of the first guess holds 36 of them
    one = dumps(build_book(game, "optimal"))
    calls = []
    side_by_side = Search._side_by_side
    monkeypatch.setattr(Search, "_side_by_side",
                        lambda self, task, *rest: calls.append(len(task.cands)) or
                        side_by_side(self, task, *rest))
    assert dumps(build_book(game, "optimal", search=SearchOptions(jobs=2))) == one
    assert calls and min(calls) > len(game.codes) // 4


def test_a_set_tried_side_by_side_is_solved_only_within_its_budget():
    game = Game("ABCDEF", 3, False)
    everything = np.arange(game.size)
    exact, guess = Search(game).best(everything, (), -1)
    search = Search(game)
    with Pool(Tasks(search), 2) as farm:
        assert search._side_by_side(ClassTask(everything, (), exact - 1, -1), farm, ()).cost == -1
        result = search._side_by_side(ClassTask(everything, (), exact, -1), farm, ())
    assert result.cost == exact and result.plan is not None and result.plan[()] == guess


def test_level_bounds():
    # one secret at depth 1, then up to 13 at depth 2, 169 at depth 3
    lb = level_bounds(200, 13)
    assert lb[1] == 1 and lb[2] == 3 and lb[14] == 1 + 2 * 13 and lb[15] == 27 + 3
    assert level_bounds(20, 13, 2)[15] >= 1 << 40


def _parallel_build(tmp_path, fault):
    """A Bulls and Cows build with two jobs in a session of its own, stopped by the fault hook;
    (its process group, stderr) once it has ended."""
    import os
    import subprocess
    import sys
    proc = subprocess.Popen([sys.executable, "-m", "treegen", "build", "-g", "bulls-and-cows", "-s",
                             "optimal", "-j", "2", "-o", str(tmp_path / "book.json")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, env={**os.environ, "TREEGEN_TEST_FAULT": fault})
    try:
        _, stderr = proc.communicate(timeout=300)
    finally:
        proc.kill()
        proc.wait()
    return proc, stderr


def _group_ends(group):
    """Whether every process of the group ends (each is given a minute; the workers die at once,
    so this is a safety net, not a timing)."""
    import os
    import signal
    import time
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            os.killpg(group, 0)
            time.sleep(0.05)
    except ProcessLookupError:
        return True
    os.killpg(group, signal.SIGKILL)
    return False


def test_ctrl_c_stops_a_parallel_search_cleanly(tmp_path):
    proc, stderr = _parallel_build(tmp_path, "result:3:INT")
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr and "continue it with --resume" in stderr
    assert _group_ends(proc.pid)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["book.json.checkpoint"]


def test_sigterm_to_the_process_group_stops_a_parallel_search(tmp_path):
    """`timeout` and service managers signal the whole process group: the workers get SIGTERM too,
    and the build still stops at once, leaving no worker behind (the hang this once caused is
    tested directly in test_search_workers)."""
    proc, stderr = _parallel_build(tmp_path, "result:3:TERM:group")
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert _group_ends(proc.pid)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["book.json.checkpoint"]


def test_the_workers_of_a_killed_build_die_with_it(tmp_path):
    """SIGKILL to the build alone: its workers die with it instead of searching on and printing
    tracebacks to the closed pipe."""
    proc, stderr = _parallel_build(tmp_path, "result:3:KILL")
    assert proc.returncode == -9
    assert _group_ends(proc.pid)
    assert "Traceback" not in stderr and "BrokenPipe" not in stderr, stderr


def test_a_worker_killed_under_a_parallel_search_stops_it_keeping_its_work(tmp_path):
    """A worker killed mid-task (by the kernel when memory runs out, say) never hands back its
    result: the build says so in one line and stops, keeping the search in its checkpoint, instead
    of waiting for that result for ever."""
    fired = tmp_path.parent / f"{tmp_path.name}.fired"
    proc, stderr = _parallel_build(tmp_path, f"task:3:KILL:once={fired}")
    assert fired.exists()
    assert proc.returncode == 1, stderr
    assert "was killed by SIGKILL" in stderr and "continue it with --resume" in stderr, stderr
    assert "Traceback" not in stderr
    assert _group_ends(proc.pid)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["book.json.checkpoint"]


def test_optimal_searches_every_code_and_refuses_pool_consistent():
    from treegen.errors import StrategyError
    with pytest.raises(StrategyError, match="optimal may guess any code; it does not take --pool consistent"):
        build_book(Game("ABC", 3, True), "optimal", pool="consistent")
