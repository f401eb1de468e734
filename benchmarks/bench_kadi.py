"""Random-playout throughput of the Kadi engine: actions per second and matches per second.

Single-threaded; every step asks `legal_actions` of the player to act (as the bot does), picks
one at random and applies it, until the match ends. Run: python benchmarks/bench_kadi.py [SECONDS]
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.kadi import GAME  # noqa: E402
from engine.kadi.options import KadiOptions  # noqa: E402

PLAYERS = ["amina", "baraka", "chausiku", "daudi"]


def play_match(seed: int, rng: random.Random, options: KadiOptions) -> int:
    state = GAME.new(PLAYERS, options, seed)
    game = GAME
    steps = 0
    while state.phase != "over":
        player = rng.choice(game.to_act(state))
        action = rng.choice(game.legal_actions(state, player))
        state = game.apply(state, player, action).state
        steps += 1
    return steps


def measure(label: str, options: KadiOptions, seconds: float) -> None:
    rng = random.Random(2026)
    actions = matches = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions += play_match(matches, rng, options)
        matches += 1
    elapsed = time.perf_counter() - start
    print(
        f"{label:<28} {actions / elapsed:>10,.0f} actions/s  {matches / elapsed:>8,.1f} matches/s"
        f"  ({actions / matches:,.0f} actions per match, {matches} matches)"
    )


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    print(f"Kadi random playouts, {len(PLAYERS)} players, {seconds:g} s each, single thread")
    measure("default options", KadiOptions(), seconds)
    measure("house rules, elimination", KadiOptions(
        mixed_stacking=True, after_joker="card_below", command_scope="next_player",
        niko_kadi_ahead=True, elimination=True, points_limit=50,
    ), seconds)  # fmt: skip
    # Uniform random players accuse constantly in hiding mode, so its matches are very long.
    measure("hiding mode", KadiOptions(hiding=True), seconds)


if __name__ == "__main__":
    main()
