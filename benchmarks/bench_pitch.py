"""Random-playout throughput of the Pitch engine: actions applied per second and whole matches per second.

What is measured: single-threaded random playouts driven through the public protocol only, the
way the table service and the core playout drive a game: every step calls `to_act`, then
`legal_actions` (so legal-action generation is included), picks one of them at random and
hands it to `advance` (the in-place fast path of `apply`; events are built as always). The
clock is CPU time of this process (time.process_time), so other load on the machine does not
distort the figures; the time of `new` (the first deal of each match) is included.

Bidding is cautious (pass 60% of the time when allowed, else mostly the lowest legal bid): under
uniformly random bids the pitcher is nearly always set back and, true to the rules, matches never
reach the target, so "matches per second" needs a sensible bidder. Card play is uniformly random
among the legal cards. The last line is uniformly random over every legal action (bids included),
for 20 hands per match; it reports actions per second only.

Usage: python benchmarks/bench_pitch.py [SECONDS]   (CPU seconds per line, default 3)
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core.protocol import Applied  # noqa: E402
from engine.pitch import GAME, PitchOptions  # noqa: E402

NAMES = ["amina", "baraka", "chausiku", "dudu", "eshe", "faraji", "gasira"]


def cautious_match(players, options, seed: int, rng: random.Random) -> int:
    """Play one match to its end; return the number of actions applied."""
    state = GAME.new(players, options, seed)
    actions = 0
    to_act, legal_actions, advance, is_finished = GAME.to_act, GAME.legal_actions, GAME.advance, GAME.is_finished
    choice, chance = rng.choice, rng.random
    while not is_finished(state):
        player = to_act(state)[0]
        legal = legal_actions(state, player)
        first = legal[0]["type"]
        if first == "play":
            action = choice(legal)
        elif first == "pass" and chance() < 0.6:
            action = legal[0]
        else:
            bids = legal[1:] if first == "pass" else legal
            action = bids[0] if chance() < 0.7 else choice(bids)
        state = advance(state, player, action).state
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


def bench_uniform(seats: int, seconds: float, hands: int = 20) -> float:
    """Uniformly random legal actions (as engine.core.playout.count_random_playout), `hands` hands per match."""
    rng = random.Random(0)
    to_act, legal_actions, advance, is_finished = GAME.to_act, GAME.legal_actions, GAME.advance, GAME.is_finished
    choice = rng.choice
    actions = seed = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = GAME.new(NAMES[:seats], PitchOptions(), seed)
        while not is_finished(state) and state.hand_number <= hands:
            player = choice(to_act(state))
            result = advance(state, player, choice(legal_actions(state, player)))
            if not isinstance(result, Applied):
                raise AssertionError(f"legal action refused: {result.code}")
            state = result.state
            actions += 1
        seed += 1
    return actions / (time.process_time() - start)


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    print(f"Pitch random playout, single thread, {seconds:g} CPU s per line (legal-action generation included)")
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
    print(f"  {'4 players, uniform random, 20 hands':36s} {bench_uniform(4, seconds):10,.0f} actions/s")


if __name__ == "__main__":
    main()
