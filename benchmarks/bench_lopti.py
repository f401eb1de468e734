"""Random-playout throughput of the Lopti engine: actions applied per second and whole rounds
("matches": a Lopti session never ends, so one dealt round played to its winner is the unit)
per second, single-threaded, with legal-action generation included.

Run: /work/venv/bin/python benchmarks/bench_lopti.py [--seconds 5] [--players 2 3 4 5]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.lopti import GAME  # noqa: E402

NAMES = ["amina", "baraka", "chausiku", "daudi", "eshe"]


def play_rounds(players: int, seconds: float, seed: int = 0) -> tuple[int, int, float]:
    """Play random legal actions in fresh one-round matches until `seconds` pass."""
    options = GAME.Options()
    rng = random.Random(seed)
    actions = matches = 0
    start = time.perf_counter()
    deadline = start + seconds
    to_act, legal_actions, apply = GAME.to_act, GAME.legal_actions, GAME.apply
    while time.perf_counter() < deadline:
        state = GAME.new(NAMES[:players], options, rng.randrange(1 << 30))
        while state.round == 1:
            player = rng.choice(to_act(state))
            state = apply(state, player, rng.choice(legal_actions(state, player))).state
            actions += 1
        matches += 1
    return actions, matches, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per player count")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5])
    args = parser.parse_args()
    total_actions = total_matches = 0
    total_time = 0.0
    print(f"{'players':>7} {'actions/s':>11} {'matches/s':>10} {'actions/match':>14}")
    for players in args.players:
        actions, matches, elapsed = play_rounds(players, args.seconds)
        total_actions += actions
        total_matches += matches
        total_time += elapsed
        print(f"{players:>7} {actions / elapsed:>11,.0f} {matches / elapsed:>10,.1f} {actions / matches:>14,.0f}")
    print(f"{'all':>7} {total_actions / total_time:>11,.0f} {total_matches / total_time:>10,.1f} "
          f"{total_actions / total_matches:>14,.0f}")


if __name__ == "__main__":
    main()
