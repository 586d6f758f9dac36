"""The heuristics' scoring kernels compiled ahead of time (no numba at run time on one thread) or
by numba's JIT: the same keys and books either way (a damaged module is never loaded: see
search/test_native.py)."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from tests.helpers.ci import IN_CI
from treegen.rules import code_walk, native, score_kernels
from treegen.rules.game import Game
from treegen.rules.scoring import CodeScorer, xlogx
from treegen.rules.symmetry import guess_alphabet

SCRIPT_ORIGIN = "from treegen.rules import native; print(native.origin())"


def _origin(env: dict[str, str] | None = None, cwd: str | None = None) -> str:
    out = subprocess.run([sys.executable, "-c", SCRIPT_ORIGIN], capture_output=True, text=True,
                         check=True, cwd=cwd, env={**os.environ, **(env or {})}, timeout=600)
    return out.stdout.strip()


def _require_ahead_of_time() -> None:
    if _origin() != "ahead-of-time" and not IN_CI:
        pytest.skip("no current ahead-of-time scoring kernels (python -m treegen.rules.native "
                    "builds them)")


def test_the_install_built_current_scoring_kernels():
    _require_ahead_of_time()
    assert _origin() == "ahead-of-time"
    assert _origin({"TREEGEN_KERNELS": "jit"}) == "jit"


def test_the_compiled_kernels_give_the_jit_kernels_keys():
    """Each kernel called from Python, compiled and JIT, on the same inputs."""
    _require_ahead_of_time()
    loaded = native.load()
    game = Game("123456", 5, True)
    scorer = CodeScorer(game, threads=1)
    rng = np.random.default_rng(4)
    secrets = np.sort(rng.choice(game.size, 150, replace=False))
    guesses = np.sort(rng.choice(game.size, 900, replace=False))
    _, codes, tally, lut, _, _ = scorer.codes
    for kernels in (loaded, score_kernels):
        assert np.array_equal(kernels.block(0, codes, tally, lut, guesses, secrets),
                              score_kernels.block(0, codes, tally, lut, guesses, secrets))
    placed, held = loaded.lay_out(codes, tally, secrets)
    steps = np.diff(xlogx(len(secrets))[:len(secrets) + 1])
    alphabet = guess_alphabet(game, secrets).astype(np.uint8)
    for kind in (0, 1, 2, 3, 4):
        rows = len(guesses) if kind == 0 else 0
        found = []
        for kernels in (loaded, score_kernels):
            sizes, keys = np.zeros((rows, scorer.nfb), np.int64), np.zeros(len(guesses))
            kernels.scan_serial(0, kind, codes, tally, lut, guesses, secrets, placed, held,
                                scorer.nfb, steps, sizes, keys, -1.0, -np.inf)
            found.append((sizes, keys))
        assert np.array_equal(found[0][0], found[1][0]) and np.array_equal(found[0][1], found[1][1])
        if kind:
            walked = []
            for walk in (loaded.walk_serial, score_kernels.walk_serial):
                keys = np.empty(len(alphabet) ** game.length)
                walk(kind, alphabet, placed, held, game.length + 1, 1, steps, keys, -1.0, -np.inf,
                     np.zeros(0, dtype=np.uint8))
                walked.append(keys)
            assert np.array_equal(walked[0], walked[1])
            trees = []
            for kernels in (loaded, code_walk):
                depths = np.zeros(game.size, dtype=np.int64)
                few = secrets[:40]
                trees.append((*kernels.walk_codes(0, kind, False, codes, tally, lut, scorer.nfb,
                                                  game.solved_index, few, 2, depths, steps),
                              depths))
            assert all(np.array_equal(a, b) for a, b in zip(*trees))


def _build_and_list_modules(tmp_path, argv, watched, timeout):
    """Run ``treegen`` with ``argv`` in a fresh interpreter; its output, whose last line lists
    the modules of ``watched`` it imported."""
    script = ("import sys\n"
              "from treegen.cli.entry import main\n"
              f"sys.argv = ['treegen', *{argv!r}]\n"
              "try:\n"
              "    main()\n"
              "except SystemExit as exc:\n"
              "    assert not exc.code, exc.code\n"
              f"print(sorted(m for m in sys.modules if {watched}))\n")
    out = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True,
                         text=True, timeout=timeout)
    assert out.returncode == 0, out.stderr
    return out


NUMBA = "m.split('.')[0] in ('numba', 'llvmlite')"


def test_a_heuristic_build_on_one_thread_never_imports_numba(tmp_path):
    _require_ahead_of_time()
    out = _build_and_list_modules(tmp_path, ["build", "--symbols", "123456", "--length", "5",
                                             "--repetition", "-s", "entropy", "-j", "1",
                                             "--memory", "1M", "-v", "-o", "book.json"],
                                  NUMBA, 600)
    assert "scored from the codes on 1 thread" in out.stdout + out.stderr
    assert out.stdout.strip().splitlines()[-1] == "[]"


@pytest.mark.parametrize("strategy", ["minimax", "entropy"])
def test_both_kinds_of_kernels_and_both_thread_counts_write_the_same_book(tmp_path, strategy):
    _require_ahead_of_time()
    books = []
    for kind, jobs in (("ahead-of-time", "1"), ("jit", "1"), ("ahead-of-time", "2")):
        out = tmp_path / f"{kind}-{jobs}.json"
        done = subprocess.run([sys.executable, "-m", "treegen", "build", "--symbols", "1234567",
                               "--length", "4", "--repetition", "-s", strategy, "--memory", "1M",
                               "-j", jobs,
                               "-o", str(out)], capture_output=True, text=True, timeout=600,
                              env={**os.environ, "TREEGEN_KERNELS": kind})
        assert done.returncode == 0, done.stderr
        books.append(out.read_bytes())
    assert books[0] == books[1] == books[2]


def test_a_heuristic_build_of_a_small_game_never_imports_numba(tmp_path):
    """The card's command stays quick to start: numba only where guesses are scored from codes,
    the search and its executors only for a search (the classes of equivalent guesses come from
    the compiled module)."""
    out = _build_and_list_modules(
        tmp_path, ["build", "-s", "minimax", "-o", "book.json"],
        NUMBA + " or m in ('treegen.search.exact', 'treegen.run.local', 'ray')", 300)
    assert out.stdout.strip().splitlines()[-1] == "[]"
    assert (tmp_path / "book.json").exists()


def test_numbas_cache_of_the_kernels_is_emptied_once_their_sources_change(tmp_path):
    """numba's cache knows a kernel by its own file: after an upgrade or an edit that changed a
    function it calls elsewhere, a cached caller would run the old one. The JIT's kernels are
    compiled afresh whenever the fingerprint of their sources is not the one the cache was kept
    for, and taken from the cache while it is."""
    script = ("import sys; from treegen import compiled; from treegen.rules import code_walk as c;"
              "compiled._cache_current('treegen.rules', int(sys.argv[1])); c._least_key(2, 10, 5);"
              "print(sum(c._least_key.stats.cache_hits.values()))")

    def hits(stamp: int) -> int:
        out = subprocess.run([sys.executable, "-c", script, str(stamp)], capture_output=True,
                             text=True, env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)},
                             timeout=600)
        assert out.returncode == 0, out.stderr
        return int(out.stdout.strip().splitlines()[-1])

    assert [hits(1), hits(1), hits(2), hits(2), hits(1)] == [0, 1, 0, 1, 0]
    assert [p.read_text().strip() for p in tmp_path.rglob("treegen.rules.digest")] == ["1"]
