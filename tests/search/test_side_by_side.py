"""Guesses tried side by side: with several jobs, a set with many hopeful guesses (a word game's
first guesses) has them tried one per worker. The book is the same as with one job, what the
workers solve is kept where a checkpoint holds it, and the status line follows them."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from dataclasses import replace

import numpy as np
import pytest

from treegen.api import build_book
from treegen.book.format import dumps
from treegen.rules.game import Game
from treegen.run.local import Pool
from treegen.search import checkpoint
from treegen.search.bounds import SMALL, UNLIMITED
from treegen.search.exact import Search
from treegen.search.options import SearchOptions
from treegen.search.strategy import Optimal
from treegen.search.tasks import Tasks

#: Run again on numba's JIT kernels in CI (see .ci/run).
pytestmark = pytest.mark.kernels


def words(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    found: set[str] = set()
    while len(found) < count:
        found.add("".join(rng.choice("abcdefg") for _ in range(5)))
    return sorted(found)


LISTED = words(3, 150)
#: 80 answers among 150 guesses, scored by black pegs (classes of up to 36 words): every guess a
#: class of its own, dozens of them hopeful.
GAME = Game.of_words(LISTED[:80], LISTED, "black")


def counting(monkeypatch):
    """The sizes of the sets whose guesses are tried side by side, as they come."""
    sizes: list[int] = []
    original = Search._side_by_side
    monkeypatch.setattr(Search, "_side_by_side",
                        lambda self, task, *rest: sizes.append(len(task.cands)) or
                        original(self, task, *rest))
    return sizes


@pytest.mark.parametrize("hard", [False, True], ids=["normal", "hard"])
def test_many_first_guesses_are_tried_side_by_side_with_the_same_book(monkeypatch, hard):
    game = replace(GAME, hard=hard)
    one = dumps(build_book(game, "optimal"))
    sizes = counting(monkeypatch)
    assert dumps(build_book(game, "optimal", search=SearchOptions(jobs=2))) == one
    assert sizes[0] == game.size  # the first guesses themselves


def test_one_first_guess_has_its_classes_handed_out_instead(monkeypatch):
    game = Game("ABCDEF", 3, False)  # one first guess up to symmetry
    one = dumps(build_book(game, "optimal"))
    sizes = counting(monkeypatch)
    assert dumps(build_book(game, "optimal", search=SearchOptions(jobs=2))) == one
    assert game.size not in sizes


def test_what_the_workers_solve_is_kept_here():
    everything = np.arange(GAME.size, dtype=np.int64)
    fresh = Search(GAME)
    optimum, first = fresh.best(everything, (), UNLIMITED)
    search = Search(GAME)
    with Pool(Tasks(search), 2) as farm:
        cost, plan = search.best_with(everything, (), UNLIMITED, farm)
    assert cost == optimum and plan is not None and plan[()] == first
    ordered, start, classes = search.split(first, everything)
    large = [(ordered[start[f]:start[f + 1]], ((first, int(f)),)) for f in classes
             if start[f + 1] - start[f] > SMALL]
    assert large, "the winning guess has classes worth keeping"
    for sub, child in large:  # solved by a worker, known here with the very cost and guess
        known, kept, guess, _ = search.kernels.recall(
            search.cache, sub, search.pools.allowed(child), UNLIMITED, optimum)
        assert known > 0 and (kept, guess) == fresh.best(sub, child, UNLIMITED)
    exact, _ = search.caches()[0]
    assert len(exact) > len(large)  # the classes of guesses that lost are kept too


def test_the_status_line_follows_the_guesses_tried_side_by_side():
    seen = []
    search = Search(GAME, status=seen.append)
    everything = np.arange(GAME.size, dtype=np.int64)
    with Pool(Tasks(search), 2) as farm:
        cost, plan = search.best_with(everything, (), UNLIMITED, farm)
    assert seen and all(p.side_by_side for p in seen) and plan is not None
    last = seen[-1]
    assert (last.best, last.guess) == (cost, GAME.code_strings[plan[()]])
    assert all(p.lower <= cost for p in seen) and seen[0].guesses == last.guesses
    assert [p.guess_rank for p in seen] == sorted(p.guess_rank for p in seen)
    assert "tried side by side; best total" in str(last) and str(cost) in str(last)


def test_a_killed_build_trying_guesses_side_by_side_resumes_to_the_same_book(tmp_path):
    (tmp_path / "answers.txt").write_text("\n".join(LISTED[:80]) + "\n")
    (tmp_path / "guesses.txt").write_text("\n".join(LISTED) + "\n")

    lists = ["--answers", str(tmp_path / "answers.txt"), "--guesses", str(tmp_path / "guesses.txt"),
             "--rule", "black"]

    def build(folder, *extra, env=None):
        return subprocess.run([sys.executable, "-m", "treegen", "build", *lists, "-s", "optimal",
                               "-j", "2", "-o", "book.json", *extra], cwd=folder,
                              capture_output=True, text=True, timeout=600,
                              env={**os.environ, **(env or {})})

    whole, cut = tmp_path / "whole", tmp_path / "cut"
    whole.mkdir()
    cut.mkdir()
    assert build(whole).returncode == 0
    killed = build(cut, env={"TREEGEN_CHECKPOINT_SECONDS": "0",
                             "TREEGEN_TEST_FAULT": "checkpoint:3:KILL"})
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    kept = cut / "book.json.checkpoint"
    exact, _ = checkpoint.load(str(kept), Optimal().identity(GAME, None), ("exact", "lower"),
                               GAME.size)
    assert len(exact[0]) > 0, "the classes the workers solved are in the checkpoint"
    resumed = build(cut, "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert (cut / "book.json").read_bytes() == (whole / "book.json").read_bytes()
