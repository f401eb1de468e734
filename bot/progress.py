"""Progress bars for the commands that run for a while (`karata demo`, `karata arena`).

On standard error and only on a terminal: piped or captured, a command prints exactly what it
printed before, so scripts and `--json` readers see no bar.
"""

from __future__ import annotations

import sys
from typing import IO

from tqdm import tqdm


def progress_bar(
    total: int | None, description: str, unit: str, file: IO[str] | None = None, disable: bool | None = None
) -> tqdm:
    """A bar of `total` steps (None: a plain counter); `disable=None` shows it on a terminal only."""
    # A counter reads "Round 1: 120 presses [00:04]" (tqdm's own would glue "120presses").
    counter = "{desc}: {n_fmt} {unit} [{elapsed}]" if total is None else None
    # leave=False: the bar is erased when done, so what the command prints next stands alone.
    return tqdm(
        total=total,
        desc=description,
        unit=unit,
        bar_format=counter,
        file=file or sys.stderr,
        disable=disable,
        leave=False,
    )
