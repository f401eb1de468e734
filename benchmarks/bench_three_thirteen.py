"""Three Thirteen throughput: random-playout actions and matches per second, and meld-solver timings.

Run: `python benchmarks/bench_three_thirteen.py [--matches N] [--hands N] [--players 2 3 4]`.
Single-threaded; wall-clock and CPU-time figures are both printed (CPU time is what to compare
on a shared, busy machine).
Random playout uses engine.core.playout.play_randomly, the driver of every engine benchmark (one
random choice per decision), so every step includes generating the legal actions (`go_out`
discards included, which runs the meld solver) and applying one with `advance` (here `apply`).
The solver timings are for fresh (uncached) solvers on random 14-card hands from two packs
with four jokers, a random wild rank each hand.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core.options import parse_options  # noqa: E402
from engine.core.playout import play_randomly  # noqa: E402
from engine.three_thirteen import GAME  # noqa: E402
from engine.three_thirteen.melds import HandSolver  # noqa: E402
from engine.three_thirteen.rules import MeldRules, game_deck  # noqa: E402

NAMES = ["amina", "baraka", "chausiku", "daudi"]


def bench_playout(matches: int, count: int) -> None:
    players = NAMES[:count]
    actions = 0
    start, cpu = time.perf_counter(), time.process_time()
    for seed in range(matches):
        state = GAME.new(players, parse_options(GAME.Options, {}), seed)
        actions += play_randomly(GAME, state, random.Random(seed).choice)[1]
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(f"random playout, {count} players, default options: {matches} matches, {actions} actions")
    print(f"  wall: {actions / elapsed:,.0f} actions/s   {matches / elapsed:.2f} matches/s   ({elapsed:.1f} s)")
    print(f"  cpu:  {actions / cpu:,.0f} actions/s   {matches / cpu:.2f} matches/s   ({cpu:.1f} s)")


def bench_solver(hands: int) -> None:
    rng = random.Random(13)
    deck = game_deck(4, 4)
    wall, cpu = [], []
    for _ in range(hands):
        cards = rng.sample(deck, 14)
        rules = MeldRules(wild=rng.randint(3, 13))
        start, thread = time.perf_counter(), time.thread_time()
        HandSolver(cards, rules).deadwood()
        cpu.append(time.thread_time() - thread)
        wall.append(time.perf_counter() - start)
    print(f"meld solver, {hands} random 14-card hands (two packs, four jokers, wilds):")
    for label, times in (("wall", wall), ("cpu ", cpu)):
        times.sort()
        print(
            f"  {label}: median {statistics.median(times) * 1e3:.3f} ms"
            f"   p99 {times[int(len(times) * 0.99)] * 1e3:.3f} ms   worst {times[-1] * 1e3:.3f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    args = parser.parse_args()
    bench_solver(args.hands)
    for count in args.players:
        bench_playout(args.matches, count)


if __name__ == "__main__":
    main()
