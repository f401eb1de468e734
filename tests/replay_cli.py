"""`python -m engine.replay` run inside the test process: the same `main`, its exit code and what
it prints, without starting a new Python for each file (tests/core/test_replay_file.py runs it
once as a real program)."""

from __future__ import annotations

import io
import subprocess
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

from engine.replay import main


def run_replay_cli(path: Path | str) -> subprocess.CompletedProcess:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main([str(path)])
    return subprocess.CompletedProcess(
        ["python", "-m", "engine.replay", str(path)], code, out.getvalue(), err.getvalue()
    )
