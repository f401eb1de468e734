"""How much a strong computer player's thinking holds up the bot's event loop: in a thread of
the bot's process (KARATA_COMPUTER_WORKERS=0) against a worker process (the default, 1).

While strong decisions of every game are made one after another through `tables.thinking.Thinker`,
a ticker on the same event loop asks to wake every millisecond and records how late it woke.
A press waits on the loop just as the ticker does, so the lateness is what a press at another
table would wait for. Prints, per mode: decisions, p50 / p99 / max lateness.

    python benchmarks/bench_thinking.py [--decisions 30]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.ai.arena import percentile  # noqa: E402
from tables.thinking import Thinker  # noqa: E402
from tests.ai.helpers import GAMES, midgame  # noqa: E402


def decisions(count: int) -> list[tuple]:
    """(game name, view, legal, player, seed): real mid-game decisions with a choice to make."""
    found = []
    seed = 0
    while len(found) < count:
        game, state, player = midgame(GAMES[seed % len(GAMES)], seed)
        legal = game.legal_actions(state, player)
        if len(legal) > 1:
            found.append((game.name, game.view(state, player), legal, player, seed))
        seed += 1
    return found


async def lateness_while_thinking(workers: int, work: list[tuple]) -> list[float]:
    thinker = Thinker(workers)
    late: list[float] = []
    done = asyncio.Event()

    async def ticker() -> None:
        while not done.is_set():
            asked = time.perf_counter()
            await asyncio.sleep(0.001)
            late.append(time.perf_counter() - asked - 0.001)

    try:
        if workers:  # start the pool before measuring: a worker's start is paid once
            await thinker.choose(*work[0][:4], "strong", work[0][4])
        ticking = asyncio.create_task(ticker())
        for name, view, legal, player, seed in work:
            await thinker.choose(name, view, legal, player, "strong", seed)
        done.set()
        await ticking
    finally:
        thinker.close()
    return late


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=30)
    args = parser.parse_args()
    work = decisions(args.decisions)
    print("| strong players think in | decisions | event loop late p50 / p99 / max |")
    print("|---|---|---|")
    for workers, label in ((0, "a thread of the bot's process"), (1, "a worker process")):
        late = await lateness_while_thinking(workers, work)
        print(
            f"| {label} | {len(work)} | {percentile(late, 0.5) * 1000:.1f} ms / "
            f"{percentile(late, 0.99) * 1000:.1f} ms / {max(late) * 1000:.1f} ms |",
            flush=True,
        )


if __name__ == "__main__":
    asyncio.run(main())
