"""The benchmarks are run by hand, not by the suite: each must at least start and explain itself,
so that a rename in the package cannot leave one broken until someone needs its figures."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

FOLDER = Path(__file__).resolve().parents[2] / "benchmarks"
FILES = sorted(FOLDER.glob("*.py"))
SCRIPTS = [p for p in FILES if "__main__" in p.read_text(encoding="utf-8")]
HELPERS = [p for p in FILES if p not in SCRIPTS]


def test_there_are_benchmarks():
    assert len(SCRIPTS) >= 5


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_a_benchmark_starts_and_explains_itself(script):
    done = subprocess.run([sys.executable, str(script), "--help"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert "usage" in done.stdout.lower() or "python benchmarks/" in done.stdout


@pytest.mark.parametrize("helper", HELPERS, ids=lambda p: p.name)
def test_a_benchmarks_helper_module_imports(helper):
    done = subprocess.run([sys.executable, "-c", f"import {helper.stem}"], cwd=FOLDER,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
