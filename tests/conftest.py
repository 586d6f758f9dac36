"""Shared fixtures: books are built once per test session, and helpers for running the CLI."""

import atexit
import os
import shutil
import sys
import tempfile
import textwrap

import pytest
from click.testing import CliRunner

from treegen.api import build_book
from treegen.cli.main import main
from treegen.rules.game import Game

# Score tables are cached on disk between runs; tests use a cache of their own, new each session,
# and a signing key of their own (see treegen.signing).
os.environ["TREEGEN_CACHE"] = tempfile.mkdtemp(prefix="treegen-test-cache-")
atexit.register(shutil.rmtree, os.environ["TREEGEN_CACHE"], True)
os.environ["TREEGEN_STATE"] = tempfile.mkdtemp(prefix="treegen-test-state-")
atexit.register(shutil.rmtree, os.environ["TREEGEN_STATE"], True)


@pytest.fixture(scope="session")
def mastermind_minimax():
    return build_book("mastermind", "minimax")


@pytest.fixture(scope="session")
def bulls_simple():
    return build_book("bulls-and-cows", "simple")


@pytest.fixture(scope="session")
def small_game():
    """3 positions of 4 symbols with repeats: 64 codes, small enough to reason about by hand."""
    return Game("ABCD", 3, True)


@pytest.fixture
def run(tmp_path, monkeypatch):
    """Run the treegen CLI in a temporary directory; returns the click Result."""
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()

    def invoke(*args, input=None):
        return runner.invoke(main, [str(a) for a in args], input=input, catch_exceptions=False)

    return invoke


@pytest.fixture
def plugin(tmp_path, monkeypatch):
    """Write a user strategy module and make it importable."""
    monkeypatch.syspath_prepend(str(tmp_path))
    names = []

    def write(source):
        name = f"userstrat_{len(names)}_{abs(hash(source)) % 10**8}"
        (tmp_path / f"{name}.py").write_text(textwrap.dedent(source))
        names.append(name)
        return name

    yield write
    for name in names:
        sys.modules.pop(name, None)


@pytest.fixture
def traced_peak():
    """The peak of Python's allocations while a call runs (tracemalloc: counted, not timed)."""
    import tracemalloc

    def peak(call):
        tracemalloc.start()
        try:
            call()
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    return peak
