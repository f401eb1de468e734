"""The habits the team chose hold (pyproject.toml's [tool.ruff]: pyflakes, import order, bugbear,
and one format), checked where CI runs the tests; .pre-commit-config.yaml runs the same before a
commit."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def ruff(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("args", [("check", "."), ("format", "--check", ".")], ids=["check", "format"])
def test_ruff_finds_nothing(args):
    found = ruff(*args)
    assert found.returncode == 0, found.stdout + found.stderr
