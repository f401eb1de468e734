"""Random-playout throughput of the Euchre-3 engine: actions per second and matches per second.

What it measures: whole matches (default options, made once per line; three players; seeds
0, 1, 2, ...) played single-threaded with uniformly random legal actions through the public
protocol only, by engine.core.playout.play_randomly, the driver of every engine benchmark.
Each step asks `to_act`, takes the one waiting player (a random choice only if several
waited), asks `legal_actions` for that player (so legal-action generation is included, e.g. all
252 or 462 `keep` sets when a maker merges the dummy), makes ONE random choice among them with
the bound `random.Random.choice`, as OpenSpiel's reference driver does, and sends it. Dealing
is included: `new` (hand 1) and every redeal, each shuffled from the seed as the engine always
does.

Two lines: through `apply` (copies the state, as property tests and replays do) and through
`advance` (the in-place fast path the table service and playouts use; the issue's target line).
Figures are per CPU second of this process (time.process_time), so other load on the machine
distorts them less; wall-clock figures are printed too. The issue's target, for comparison:
OpenSpiel's four-handed euchre driven from Python on the same machine, about 430,000 actions/s.
Run: `python benchmarks/bench_euchre3.py [SECONDS]`.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core.playout import play_randomly  # noqa: E402
from engine.euchre3 import GAME  # noqa: E402

PLAYERS = ("amina", "baraka", "chausiku")


def play_match(seed: int, options, rng: random.Random, step) -> int:
    """One whole match with uniformly random legal actions; returns the number of actions."""
    return play_randomly(GAME, GAME.new(PLAYERS, options, seed), rng.choice, step)[1]


def measure(label: str, step, seconds: float) -> None:
    rng = random.Random(2026)
    options = GAME.Options()
    matches = actions = 0
    wall, cpu = time.perf_counter(), time.process_time()
    while time.process_time() - cpu < seconds:
        actions += play_match(matches, options, rng, step)
        matches += 1
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(
        f"  {label:9s} {actions / cpu:10,.0f} actions/s {matches / cpu:8,.1f} matches/s per CPU second"
        f"   (wall: {actions / wall:,.0f} actions/s, {matches / wall:,.1f} matches/s;"
        f" {matches} matches, {actions / matches:.1f} actions each)"
    )


def main(seconds: float = 5.0) -> None:
    print(f"euchre3 random playout, single-threaded, {seconds:g} CPU s per line, legal-action generation included")
    measure("apply", GAME.apply, seconds)
    measure("advance", GAME.advance, seconds)


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 5.0)
