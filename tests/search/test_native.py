"""The exact search's kernels: compiled ahead of time (no numba at run time) or by numba's JIT, the
same books either way; and the hash table of solved sets they share, against a plain dictionary."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import numpy as np
import pytest

from tests.helpers.ci import IN_CI
from treegen.search import native
from treegen.search.native import PLAIN, WITH_CLAIMS

REQUIRED = IN_CI


def _origin(env: dict[str, str] | None = None) -> str:
    out = subprocess.run([sys.executable, "-c", "from treegen.search import native; print(native.origin())"],
                         capture_output=True, text=True, check=True, env={**os.environ, **(env or {})})
    return out.stdout.strip()


def _require_ahead_of_time() -> None:
    if _origin() != "ahead-of-time" and not REQUIRED:
        pytest.skip("no current ahead-of-time kernels (python -m treegen.search.native builds them)")


def test_the_install_built_current_ahead_of_time_kernels():
    _require_ahead_of_time()
    assert _origin() == "ahead-of-time"
    assert _origin({"TREEGEN_KERNELS": "jit"}) == "jit"


def test_a_module_built_from_other_sources_is_not_used(monkeypatch):
    _require_ahead_of_time()
    assert native._ahead_of_time() is not None
    monkeypatch.setattr(native, "digest", lambda: 12345)
    assert native._ahead_of_time() is None


def test_an_exact_build_on_the_ahead_of_time_kernels_never_imports_numba(tmp_path):
    _require_ahead_of_time()
    script = ("import sys\n"
              "from treegen.cli.entry import main\n"
              "sys.argv = ['treegen', 'build', '--symbols', 'ABCDE', '--length', '3', '-s', 'optimal',"
              " '-j', '1', '-o', 'book.json']\n"
              "try:\n"
              "    main()\n"
              "except SystemExit as exc:\n"
              "    assert not exc.code, exc.code\n"
              "print(sorted(m for m in sys.modules if m.split('.')[0] in ('numba', 'llvmlite')))\n")
    out = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "[]"
    assert (tmp_path / "book.json").exists()


@pytest.mark.parametrize("game", [
    ["-g", "mastermind", "--max-depth", "5"],
    ["--symbols", "ABCDEF", "--length", "3", "--no-repetition"],
    ["--symbols", "1234567", "--length", "4", "--repetition", "--width", "2", "--exact-below", "300"],
])
def test_both_kinds_of_kernels_write_the_same_book(tmp_path, game):
    _require_ahead_of_time()
    books = []
    for kind in ("ahead-of-time", "jit"):
        env = {**os.environ, "TREEGEN_KERNELS": kind}
        out = tmp_path / f"{kind}.json"
        done = subprocess.run([sys.executable, "-m", "treegen", "build", *game, "-s", "optimal",
                               "-j", "1", "-o", str(out)], capture_output=True, text=True, env=env,
                              timeout=600)
        assert done.returncode == 0, done.stderr
        books.append(out.read_bytes())
    assert books[0] == books[1]


@pytest.fixture(params=["jit", "loaded"])
def kernels(request):
    """The set cache's kernels: numba's own, and whichever the search loads (ahead of time when
    the install built them)."""
    if request.param == "jit":
        from treegen.search import set_cache
        return set_cache
    return native.load()


#: Outside hard mode no guesses are listed as allowed: every guess is.
NONE = np.empty(0, dtype=np.int64)


@pytest.mark.parametrize("columns", [PLAIN, WITH_CLAIMS])
def test_the_set_cache_answers_like_a_dictionary_through_growth_and_emptying(kernels, columns):
    rng = random.Random(7)
    sets = [np.array(sorted(rng.sample(range(500), rng.randint(13, 40))), dtype=np.int64)
            for _ in range(3000)]
    # half the sets are hard mode's: with the guesses their history allows (themselves and more)
    allowed = [np.union1d(s, rng.sample(range(500, 900), 5)) if k % 2 else NONE
               for k, s in enumerate(sets)]
    for cap in (100_000, 700):  # grows from 1,024 slots; or is emptied at 700 entries
        table = kernels.new_table(cap, columns)
        # index -> (value, guess, claim): exact when guess >= 0
        model: dict[int, tuple[int, int, int]] = {}
        for step in range(12_000):
            i = rng.randrange(len(sets))
            budget = rng.randint(0, 200)
            if rng.random() < 0.5:
                cost, guess = (rng.randint(0, 200), rng.randint(0, 99)) if rng.random() < 0.5 \
                    else (-1, -1)
                claim = rng.randint(0, 10**6)
                table = kernels.remember(table, sets[i], allowed[i], 3, budget, cost, guess, claim)
                if len(model) >= cap and i not in model:
                    model.clear()
                old = model.get(i)
                if cost >= 0:
                    model[i] = (cost, guess, claim)
                elif old is None or (old[1] < 0 and old[0] < budget + 1):
                    model[i] = (budget + 1, -1, claim)
            known = model.get(i)
            expected: tuple[int, ...] = (0, -1, -1, -1)
            if known is not None and known[1] >= 0:
                expected = (1, *known) if known[0] <= budget else (-1, known[0], -1, known[2])
            elif known is not None and known[0] > budget:
                expected = (-1, known[0], -1, known[2])
            if columns == PLAIN and expected[0]:
                expected = (*expected[:3], -1)
            assert tuple(kernels.recall(table, sets[i], allowed[i], 3, budget)) == expected, step
            assert kernels.recall(table, sets[i], allowed[i], 4, 10**9)[0] == 0  # another depth
            other = allowed[i][1:] if len(allowed[i]) else sets[i]  # other guesses allowed
            assert kernels.recall(table, sets[i], other, 3, 10**9)[0] == 0
        assert table[0, 0] == len(model) <= cap
        assert (table[1:, 0] != 0).sum() == len(model) and 2 * len(model) <= len(table) - 1


def test_the_set_cache_exports_and_imports_its_entries(kernels):
    table = kernels.new_table(1000, PLAIN)
    cands = [np.arange(k, k + 20, dtype=np.int64) for k in range(50)]
    for k, sub in enumerate(cands):
        table = kernels.remember(table, sub, NONE, -1, 30, k if k % 2 else -1, 5 if k % 2 else -1,
                                 -1)
    exact, lower = kernels.export_entries(table, True), kernels.export_entries(table, False)
    assert len(exact[0]) == len(lower[0]) == 25
    again = kernels.new_table(1000, PLAIN)
    for keys, values in (exact, lower):
        again = kernels.import_entries(again, keys, values)
    for k, sub in enumerate(cands):
        assert tuple(kernels.recall(again, sub, NONE, -1, 30)) == \
            tuple(kernels.recall(table, sub, NONE, -1, 30))
        # exact costs of odd k; the even ones cost more than 30 (31 at least); no claims kept
        expected = (1, k, 5, -1) if k % 2 and k <= 30 else (-1, k if k % 2 else 31, -1, -1)
        assert tuple(kernels.recall(again, sub, NONE, -1, 30)) == expected
        assert tuple(kernels.recall(again, sub, NONE, -1, 60)) == \
            ((1, k, 5, -1) if k % 2 else (0, -1, -1, -1))


def test_the_set_cache_keeps_floors_apart_from_costs(kernels):
    """A set's one-step floor is kept by the set, its allowed guesses, the depth and the
    branching; it is no cost or bound of the set, and checkpoints do not carry it."""
    table = kernels.new_table(1000, PLAIN)
    sub = np.arange(10, 30, dtype=np.int64)
    table = kernels.floor_remember(table, sub, NONE, 3, 7, 55)
    assert kernels.floor_recall(table, sub, NONE, 3, 7) == 55
    assert kernels.floor_recall(table, sub, NONE, 3, 8) == -1  # another branching
    assert kernels.floor_recall(table, sub, NONE, 4, 7) == -1  # another depth
    assert kernels.floor_recall(table, sub, sub, 3, 7) == -1  # other guesses allowed
    assert kernels.floor_recall(table, sub[1:], NONE, 3, 7) == -1
    assert tuple(kernels.recall(table, sub, NONE, 3, 10**9)) == (0, -1, -1, -1)
    table = kernels.remember(table, sub, NONE, 3, 100, 60, 2, -1)
    assert kernels.floor_recall(table, sub, NONE, 3, 7) == 55
    assert tuple(kernels.recall(table, sub, NONE, 3, 100)) == (1, 60, 2, -1)
    exact, lower = kernels.export_entries(table, True), kernels.export_entries(table, False)
    assert len(exact[0]) == 1 and len(lower[0]) == 0


@pytest.mark.parametrize("package", ["search", "rules"])
@pytest.mark.parametrize("damage", ["truncated", "flipped", "no manifest"])
def test_a_damaged_compiled_module_is_never_loaded(tmp_path, damage, package):
    """A truncated shared library (an interrupted copy) kills the interpreter with SIGBUS when
    loaded: its bytes are checked against the build's manifest first, and the JIT takes over;
    so for the search's kernels and for the heuristics' scoring kernels."""
    import shutil
    _require_ahead_of_time()
    script = f"from treegen.{package} import native; print(native.origin())"
    if package == "rules" and not REQUIRED and subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout.strip() != "ahead-of-time":
        pytest.skip("no current ahead-of-time scoring kernels (python -m treegen.rules.native)")
    import treegen
    shutil.copytree(os.path.dirname(treegen.__file__), tmp_path / "treegen",
                    ignore=shutil.ignore_patterns("__pycache__"))
    folder = tmp_path / "treegen" / package
    (module,) = folder.glob("_native*.so")
    data = module.read_bytes()
    if damage == "truncated":
        module.write_bytes(data[:len(data) // 2])
    elif damage == "flipped":
        module.write_bytes(data[:-100] + bytes([data[-100] ^ 1]) + data[-99:])
    else:
        (folder / "_native.json").unlink()
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(tmp_path)}, timeout=600)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "jit"


def test_the_numba_a_module_is_keyed_by_is_the_installed_one():
    """The fingerprint reads numba's version beside it rather than through importlib.metadata
    (a tenth of a small build's start); both must name the same release."""
    from importlib.metadata import version

    from treegen import compiled
    assert compiled._installed_version("numba") == version("numba")
    assert compiled._installed_version("no_such_package_of_treegen") == "none"


def test_a_build_compiles_each_kernel_from_its_source_not_from_numbas_cache():
    """numba's cache knows a kernel by its own file: a caller cached before a callee in another
    file changed (code_walk's choice over score_kernels' walk) would put the old callee into a
    module stamped with the new sources' digest. A build turns the cache off for every kernel."""
    from numba.core.caching import NullCache
    from numba.core.registry import CPUDispatcher

    from treegen import compiled
    from treegen.rules import code_walk, score_kernels
    from treegen.search import kernels as search_kernels
    dispatchers = [value for module in (code_walk, score_kernels, search_kernels)
                   for value in vars(module).values() if isinstance(value, CPUDispatcher)]
    kept = [d._cache for d in dispatchers]
    assert any(not isinstance(cache, NullCache) for cache in kept)  # cached as the JIT runs
    try:
        compiled._uncached()
        assert all(isinstance(d._cache, NullCache) for d in dispatchers)
        assert isinstance(code_walk._choice._cache, NullCache)
        assert isinstance(score_kernels._run._cache, NullCache)
    finally:
        for dispatcher, cache in zip(dispatchers, kept):
            dispatcher._cache = cache
