"""How much a Mini App snapshot weighs, per game: the largest and the median over random matches.

What it does: plays random matches of every game at its largest table (tests/render/playouts.py,
the renderer tests' matches), and at each decision builds the snapshot of every seat to act, at
the top of its keyboard and down one random path of taps that open a branch (a marked card, a
Jack's command, Lopti's Swap), as the app is answered; each snapshot is measured as the JSON the
server sends (UTF-8 bytes). The goal (docs/MINIAPP.md) is every snapshot under 16 KB.

Run: python benchmarks/bench_snapshot_size.py [--matches 10] [--moves 400]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.registry import available_games  # noqa: E402
from handlers.i18n import translator  # noqa: E402
from tests.render.playouts import LARGEST, play  # noqa: E402
from tests.webapp.test_choices import walk  # noqa: E402

EN = translator("en")


def sizes(game: str, matches: int, moves: int) -> tuple[list[int], str]:
    """Every snapshot's size, and the prompt of the largest."""
    rng = random.Random(1)
    found, largest, prompt = [], 0, ""
    for seed in range(1, matches + 1):
        for frame in play(game, LARGEST[game], seed, max_moves=moves):
            for player in frame.game.to_act(frame.state):
                for _seen, snap in walk(frame, player, rng):
                    size = len(json.dumps(snap, ensure_ascii=False).encode())
                    found.append(size)
                    if size > largest:
                        largest, prompt = size, snap["prompt"].split("\n")[-1]
    return found, prompt


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--moves", type=int, default=400)
    args = parser.parse_args()
    print("| game | snapshots | p50 | max | the largest's prompt |")
    print("|---|---|---|---|---|")
    for game in available_games():
        found, prompt = sizes(game, args.matches, args.moves)
        print(
            f"| {game} | {len(found)} | {statistics.median(found) / 1024:.1f} KB | {max(found) / 1024:.1f} KB | {prompt[:60]} |"
        )


if __name__ == "__main__":
    main()
