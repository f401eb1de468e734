"""Random-playout throughput of the Kadi engine: actions per second and matches per second.

What it measures: single-threaded random playouts driven through the public protocol only by
engine.core.playout.play_randomly, the driver of every engine benchmark. Each step asks
`to_act`; a lone waiting player acts, otherwise one of the waiting players is picked at
random (one random choice per decision, as OpenSpiel's reference driver makes). It then asks
`legal_actions` for that player (the complete, exact list the bot builds keyboards from),
picks one of them uniformly at random (`random.Random.choice`, bound once) and applies it
with `advance` (the in-place fast path; every event is still built), checking that it was
applied. A match is dealt with `new` (4 players, the options of the line) and played until
nobody is waited for; dealing every match and every later round is inside the timed loop.

Time is CPU time of this process (`time.process_time`), so other work on a shared machine
affects the figures less than wall time would. "actions/s" counts applied actions; the RNG
choices and the loop itself are included. Nothing is validated, logged or copied by the driver.

Run: python benchmarks/bench_kadi.py [SECONDS per configuration, default 5]
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core.playout import play_randomly  # noqa: E402
from engine.kadi import GAME  # noqa: E402
from engine.kadi.options import KadiOptions  # noqa: E402

PLAYERS = ["amina", "baraka", "chausiku", "daudi"]


def play_match(seed: int, rng: random.Random, options: KadiOptions) -> int:
    """One random match through the protocol; returns the number of actions applied."""
    return play_randomly(GAME, GAME.new(PLAYERS, options, seed), rng.choice)[1]


def measure(label: str, options: KadiOptions, seconds: float) -> tuple[float, float]:
    rng = random.Random(2026)
    actions = matches = 0
    start = time.process_time()
    while True:
        actions += play_match(matches, rng, options)
        matches += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            break
    print(
        f"{label:<28} {actions / elapsed:>10,.0f} actions/s  {matches / elapsed:>8,.1f} matches/s"
        f"  ({actions / matches:,.0f} actions per match, {matches} matches, {elapsed:.1f} s CPU)"
    )
    return actions / elapsed, matches / elapsed


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    print(f"Kadi random playouts via to_act/legal_actions/advance, {len(PLAYERS)} players, "
          f"{seconds:g} s CPU each, single thread")  # fmt: skip
    measure("default options", KadiOptions(), seconds)
    measure("house rules, elimination", KadiOptions(
        mixed_stacking=True, after_joker="card_below", command_scope="next_player",
        niko_kadi_ahead=True, elimination=True, points_limit=50,
    ), seconds)  # fmt: skip
    # Uniform random players accuse constantly in hiding mode, so its matches are very long.
    measure("hiding mode", KadiOptions(hiding=True), seconds)


if __name__ == "__main__":
    main()
