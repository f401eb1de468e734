"""Run the test suite with CPU hogs beside it, as on a busy shared machine, and say whether it passed.

    python tools/suite_under_load.py                   # the whole suite, 4 hogs per core
    python tools/suite_under_load.py --hogs 8 -- tests/e2e/test_process.py -n 2

The suite's tests wait for conditions with generous bounds, never for a speed: they must pass
however slow the machine is, only slower. Each hog is a process that spins until the suite ends
(at the same priority as the tests, so a load average of about hogs + workers). Prints the
load average, the wall time and PASSED or FAILED; exits with pytest's code.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def spin() -> None:
    while True:
        pass


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--hogs", type=int, default=4 * (os.cpu_count() or 1), help="CPU hog processes (default: 4 per core)"
    )
    parser.add_argument("pytest_args", nargs="*", help="what to give pytest after -- (default: the whole suite)")
    options = parser.parse_args(argv)
    hogs = [multiprocessing.Process(target=spin, daemon=True) for _ in range(options.hogs)]
    for hog in hogs:
        hog.start()
    started = time.monotonic()
    try:
        code = subprocess.call([sys.executable, "-m", "pytest", *options.pytest_args], cwd=ROOT)
    finally:
        load = os.getloadavg()[0]
        for hog in hogs:
            hog.terminate()
        for hog in hogs:
            hog.join()
    wall = time.monotonic() - started
    print(
        f"{'PASSED' if code == 0 else 'FAILED'} with {options.hogs} CPU hogs beside it: "
        f"{wall:.0f} s wall, load average {load:.1f} at the end"
    )
    return code


if __name__ == "__main__":
    sys.exit(main())
