"""What a test needs of the machine: CI, and the system binaries some tests run."""

import os
import shutil

import pytest

#: CI sets CI=true (or 1, yes); CI=false or an empty value is not CI.
IN_CI = os.environ.get("CI", "").strip().lower() in ("1", "true", "yes", "on")


def requires_binary(name: str):
    """Skip when a system binary is missing, except in CI, where its absence must fail the test."""
    present = shutil.which(name) is not None
    return pytest.mark.skipif(not present and not IN_CI, reason=f"{name} is not installed")
