"""Random-playout throughput of the Pitch engine: actions applied per second and whole matches per second.

Single-threaded, timed in CPU seconds of this process (time.process_time, so other load on
the machine does not distort the figures); every step asks `to_act` and `legal_actions` and
then `apply`s one of them, so legal-action generation is included. Bidding is cautious (pass 60% of the time when allowed,
else mostly the lowest legal bid): under uniformly random bids the pitcher is nearly always set
back and, true to the rules, matches never reach the target. A uniform-random run of the core
playout is timed too (actions per second only). Usage: python benchmarks/bench_pitch.py [SECONDS]
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core.playout import random_steps  # noqa: E402
from engine.pitch import GAME, PitchOptions  # noqa: E402

NAMES = ["amina", "baraka", "chausiku", "dudu", "eshe", "faraji", "gasira"]


def cautious_match(players, options, seed: int, rng: random.Random) -> int:
    state = GAME.new(players, options, seed)
    actions = 0
    to_act, legal_actions, apply, is_finished = GAME.to_act, GAME.legal_actions, GAME.apply, GAME.is_finished
    while not is_finished(state):
        player = to_act(state)[0]
        legal = legal_actions(state, player)
        first = legal[0]["type"]
        if first == "play":
            action = legal[rng.randrange(len(legal))]
        elif first == "pass" and rng.random() < 0.6:
            action = legal[0]
        else:
            bids = legal[1:] if first == "pass" else legal
            action = bids[0] if rng.random() < 0.7 else bids[rng.randrange(len(bids))]
        state = apply(state, player, action).state
        actions += 1
    return actions


def bench_matches(seats: int, options: PitchOptions, seconds: float) -> tuple[float, float, int]:
    rng = random.Random(seats)
    players = NAMES[:seats]
    matches = actions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        actions += cautious_match(players, options, matches, rng)
        matches += 1
    elapsed = time.process_time() - start
    return actions / elapsed, matches / elapsed, matches


def bench_uniform(seats: int, seconds: float) -> float:
    rng = random.Random(0)
    actions = 0
    start = time.process_time()
    seed = 0
    while time.process_time() - start < seconds:
        state = GAME.new(NAMES[:seats], PitchOptions(), seed)
        for step in random_steps(GAME, state, rng, max_steps=10**9):
            actions += 1
            if step.state.hand_number > 20:
                break
        seed += 1
    return actions / (time.process_time() - start)


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    print(f"Pitch random playout, single thread, {seconds:.0f} CPU s per line (legal-action generation included)")
    cases = [
        (4, PitchOptions(), "4 players, defaults"),
        (2, PitchOptions(), "2 players, defaults"),
        (7, PitchOptions(), "7 players, defaults"),
        (4, PitchOptions(partnerships=True, smudge=True), "4 players, partnerships + smudge"),
        (4, PitchOptions(target=21), "4 players, target 21"),
    ]
    for seats, options, label in cases:
        per_action, per_match, matches = bench_matches(seats, options, seconds)
        print(f"  {label:36s} {per_action:10,.0f} actions/s {per_match:9,.1f} matches/s  ({matches} matches)")
    print(f"  {'4 players, uniform random (core playout)':36s} {bench_uniform(4, seconds):10,.0f} actions/s")


if __name__ == "__main__":
    main()
