"""mypy passes over tables/, handlers/ and bot/ (pyproject.toml's [tool.mypy]), checked where CI
runs the tests; .pre-commit-config.yaml runs the same before a commit."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


# A clean checkout has no .mypy_cache: the first run reads the libraries' types (some 10 s of CPU).
@pytest.mark.long
def test_mypy_finds_nothing():
    found = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert found.returncode == 0, found.stdout + found.stderr
