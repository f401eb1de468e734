"""Random-playout throughput of the Pitch engine: actions applied and whole matches per CPU second.

What is measured: single-threaded uniformly random playouts driven through the public protocol
only, with the driver loop of OpenSpiel's reference benchmark (benchmarks/bench_openspiel_reference.py)
through engine.core.playout.play_randomly, every engine benchmark's driver: at every decision `to_act`, then ONE random
choice among `legal_actions` of the player to act (so legal-action generation is included), then
`advance` (the in-place fast path of `apply`; every event is built as always). A second random
choice picks the player only when several are waiting (never, in Pitch).

Every match is dealt with `new` inside the timed loop, and each later hand is dealt by the action
that ends the hand before it. Uniformly random bidders set themselves back nearly every hand and,
true to the rules, never reach the target, so a match is stopped after MATCH_ACTIONS actions (some
20 hands at 4 players) and the next one is dealt. The clock is the CPU time of this process
(time.process_time), so other load on the machine distorts the figures less.

Whole matches per second need bidders that sometimes make their bid, so a second table plays
every match to its end with cautious bidders (pass 60% of the time when allowed, else mostly the
lowest legal bid) and uniformly random card play, through the same loop.

The first "4 players, defaults" line is the figure the engine's performance target refers to.
Usage: python benchmarks/bench_pitch.py [SECONDS]   (CPU seconds per line, default 3)
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core.playout import play_randomly  # noqa: E402
from engine.pitch import GAME, PitchOptions  # noqa: E402

NAMES = ["amina", "baraka", "chausiku", "dudu", "eshe", "faraji", "gasira"]
MATCH_ACTIONS = 500


def bench_uniform(seats: int, options: PitchOptions, seconds: float) -> tuple[float, int]:
    """Actions per CPU second of uniformly random play, and the number of matches dealt."""
    players = NAMES[:seats]
    choice = random.Random(seats).choice
    actions = matches = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        actions += play_randomly(GAME, GAME.new(players, options, matches), choice, limit=MATCH_ACTIONS)[1]
        matches += 1
    return actions / (time.process_time() - start), matches


def cautious_match(players: list[str], options: PitchOptions, seed: int, rng: random.Random) -> int:
    """Play one match to its end with cautious bidders; return the number of actions applied."""
    state = GAME.new(players, options, seed)
    to_act, legal_actions, advance = GAME.to_act, GAME.legal_actions, GAME.advance
    choice, chance = rng.choice, rng.random
    actions = 0
    while waiting := to_act(state):
        player = waiting[0]
        legal = legal_actions(state, player)
        first = legal[0]["type"]
        if first == "play":
            action = choice(legal)
        elif first == "pass" and chance() < 0.6:
            action = legal[0]
        else:
            bids = legal[1:] if first == "pass" else legal
            action = bids[0] if chance() < 0.7 else choice(bids)
        result = advance(state, player, action)
        if not result.ok:
            raise AssertionError(f"legal action refused: {result.code}")
        state = result.state
        actions += 1
    return actions


def bench_whole_matches(seats: int, options: PitchOptions, seconds: float) -> tuple[float, float, int]:
    """Actions and whole matches per CPU second with cautious bidders."""
    rng = random.Random(seats)
    players = NAMES[:seats]
    matches = actions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        actions += cautious_match(players, options, matches, rng)
        matches += 1
    elapsed = time.process_time() - start
    return actions / elapsed, matches / elapsed, matches


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    print(f"Pitch uniformly random playout, single thread, {seconds:g} CPU s per line (legal actions included)")
    cases = [
        (4, PitchOptions(), "4 players, defaults"),
        (2, PitchOptions(), "2 players, defaults"),
        (7, PitchOptions(), "7 players, defaults"),
        (4, PitchOptions(partnerships=True, smudge=True), "4 players, partnerships + smudge"),
    ]
    for seats, options, label in cases:
        per_action, matches = bench_uniform(seats, options, seconds)
        print(f"  {label:36s} {per_action:10,.0f} actions/s  ({matches} matches)")
    print("Whole matches, cautious bidders, uniformly random card play")
    for seats, options, label in cases:
        per_action, per_match, matches = bench_whole_matches(seats, options, seconds)
        print(f"  {label:36s} {per_action:10,.0f} actions/s {per_match:9,.1f} matches/s  ({matches} matches)")


if __name__ == "__main__":
    main()
