"""Random-playout throughput of the Lopti engine, single-threaded, in CPU time.

What it measures: fresh tables (`GAME.new`, default options, dealing included) are played with
uniformly random legal actions through the public protocol only, by
engine.core.playout.play_randomly, the driver of every engine benchmark, which makes one
random choice per decision as OpenSpiel's reference driver does: each step asks
`to_act`, picks one waiting player at random only when several wait (setup), asks
`legal_actions` for that player (the complete, exact list the bot builds keyboards from), picks
one action uniformly with `random.Random.choice` and applies it with the in-place fast path
`advance` (every event is still built). One random choice per decision; `choice` is bound once.
This runs until `--seconds` of CPU time (`time.process_time`) have been used per player count.
It prints

  actions/s   actions applied per CPU second (including `new`, `to_act`, `legal_actions`, the
              random choices and the loop itself);
  matches/s   whole "matches" per CPU second. A Lopti session never ends (`is_finished` is
              always False), so one match is one dealt round played from the deal (setup:
              swaps and ready) to the winner's `no_rule`, which deals round 2, as in
              docs/games/lopti.md;
  actions/match  the mean round length.

The "all" line (the default player counts together) is the target line of the engine's issue.
With `--apply` it drives the copying `apply` instead of `advance`, for comparison.

Run: /work/venv/bin/python benchmarks/bench_lopti.py [--seconds 5] [--players 2 3 4 5] [--apply]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core.playout import play_randomly  # noqa: E402
from engine.lopti import GAME  # noqa: E402

NAMES = ["amina", "baraka", "chausiku", "daudi", "eshe"]


def _in_first_round(state) -> bool:
    return state.round == 1


def play_rounds(players: int, seconds: float, seed: int = 0, copying: bool = False) -> tuple[int, int, float]:
    """Play random legal actions in fresh one-round matches until `seconds` of CPU time pass."""
    options = GAME.Options()
    rng = random.Random(seed)
    step = GAME.apply if copying else GAME.advance
    names = NAMES[:players]
    actions = matches = 0
    clock = time.process_time
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        state = GAME.new(names, options, rng.randrange(1 << 30))
        # The round ends when `round` moves on (the winner's rule).
        actions += play_randomly(GAME, state, rng.choice, step, going=_in_first_round)[1]
        matches += 1
    return actions, matches, clock() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per player count")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5])
    parser.add_argument("--apply", action="store_true", help="drive the copying `apply` instead of `advance`")
    args = parser.parse_args()
    total_actions = total_matches = 0
    total_time = 0.0
    print(f"lopti, {'apply' if args.apply else 'advance'}, CPU time (process_time), single thread")
    print(f"{'players':>7} {'actions/s':>11} {'matches/s':>10} {'actions/match':>14}")
    for players in args.players:
        actions, matches, elapsed = play_rounds(players, args.seconds, copying=args.apply)
        total_actions += actions
        total_matches += matches
        total_time += elapsed
        print(f"{players:>7} {actions / elapsed:>11,.0f} {matches / elapsed:>10,.1f} {actions / matches:>14,.0f}")
    print(
        f"{'all':>7} {total_actions / total_time:>11,.0f} {total_matches / total_time:>10,.1f} "
        f"{total_actions / total_matches:>14,.0f}"
    )


if __name__ == "__main__":
    main()
