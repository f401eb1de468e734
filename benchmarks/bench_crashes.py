"""Kill points: `kill -9` the bot at random moments of play, start it again, and count the kill
points after which a table stalls.

What it does: starts the fake Bot API on 127.0.0.1 and `karata run` against it as its own
process (turn timer off, so only presses move the game), opens a Kadi table of 3 players, and
then, KILLS times: the players press what their private chats show (the player to act presses a
button of their latest hand, as in bench_bot.py); after a random moment (half of the kills within
0.3 s of a press, where a move is committed but not yet shown; the others up to 2 s later) the
process gets SIGKILL and a new one starts on the same database.

A kill point counts as a stall when, after the restart, either
- presses of what the players' chats show do not commit two new moves within 20 s (a missing or stale
  keyboard, a lost redelivered press, a table stuck in a pause), or
- the table's messages do not catch up with its committed state within 10 s of that move (the
  database's `published_revision` stays behind `revision`: a screen the bot meant to show was
  never shown).
A finished match is followed by a new one in the same group.

Run: python benchmarks/bench_crashes.py [--kills 200] [--seed 1]
Prints kill points, stalls, moves committed, matches, and restart time p50/max.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import signal
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_bot import choice, committed_moves, latest_with_buttons, open_tables, start_process, stop_process  # noqa: E402

from bot.demo import DEMO_TOKEN, Simulation  # noqa: E402
from fakeapi import FakeBotAPI  # noqa: E402

PROGRESS_SECONDS = 20
CATCH_UP_SECONDS = 10


def table_row(db_path: str) -> tuple[str, int, int] | None:
    """The latest table's status, revision and published revision."""
    with sqlite3.connect(db_path) as db:
        return db.execute(
            "SELECT status, revision, published_revision FROM tables ORDER BY table_id DESC LIMIT 1"
        ).fetchone()


def playing(db_path: str) -> bool:
    row = table_row(db_path)
    return row is not None and row[0] == "playing"


async def playable(api: FakeBotAPI, sim: Simulation, db_path: str) -> int:
    """The group's match goes on, or a new one is opened when the last has ended; the number of
    matches opened."""
    if playing(db_path):
        return 0
    await sim.open_table("kadi")
    return 1


def polls(api: FakeBotAPI) -> int:
    return sum(1 for method, _ in api.calls if method == "getUpdates")


async def press_once(api: FakeBotAPI, sim: Simulation, rng: random.Random) -> bool:
    """One press of a button a player's private chat shows; False when no chat shows one."""
    ready = [(user, message) for user in sim.users if (message := latest_with_buttons(api, user, "T:"))]
    if not ready:
        return False
    user, message = rng.choice(ready)
    await api.press(user, user.id, message.message_id, choice(message, rng))
    return True


async def play_until(api: FakeBotAPI, sim: Simulation, rng: random.Random, until: float) -> None:
    while time.monotonic() < until:
        if not await press_once(api, sim, rng):
            await asyncio.sleep(0.02)
            continue
        await asyncio.sleep(0.05)


async def moves_again(api: FakeBotAPI, sim: Simulation, db_path: str, rng: random.Random) -> bool:
    """Players press what they see until two new moves are committed (or the time is up): a press
    sent before the kill and delivered again may make the first, the second needs the buttons
    the restarted bot shows."""
    before = committed_moves(db_path) + 1
    until = time.monotonic() + PROGRESS_SECONDS
    while time.monotonic() < until:
        if committed_moves(db_path) > before or not playing(db_path):
            return True  # moved on, or the match ended (a new one is opened)
        if not await press_once(api, sim, rng):
            await asyncio.sleep(0.05)
            continue
        await asyncio.sleep(0.2)
    return committed_moves(db_path) > before


async def catches_up(db_path: str) -> bool:
    until = time.monotonic() + CATCH_UP_SECONDS
    while time.monotonic() < until:
        row = table_row(db_path)
        if row is not None and row[2] >= row[1]:
            return True
        await asyncio.sleep(0.1)
    return False


async def kill_points(kills: int, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    stalls, restarts, matches = 0, [], 1
    with tempfile.TemporaryDirectory() as folder:
        db_path = str(Path(folder) / "karata.db")
        async with FakeBotAPI(token=DEMO_TOKEN) as api:
            process = await start_process(["-m", "bot.cli", "run"], api, db_path, limits=False)
            try:
                await api.wait_until(lambda: polls(api) > 0, timeout=60, what="the first poll")
                (sim,) = await open_tables(api, 1, seed)
                start_moves = committed_moves(db_path)
                for point in range(kills):
                    soon = rng.random() < 0.5
                    matches += await playable(api, sim, db_path)
                    if soon:  # right after a press: committed, perhaps not yet shown
                        while not await press_once(api, sim, rng):
                            if not playing(db_path):
                                break
                            await asyncio.sleep(0.02)
                        await asyncio.sleep(rng.uniform(0, 0.3))
                    else:
                        await play_until(api, sim, rng, time.monotonic() + rng.uniform(0.1, 2.0))
                    process.send_signal(signal.SIGKILL)
                    await process.wait()
                    seen_polls, started = polls(api), time.monotonic()
                    process = await start_process(["-m", "bot.cli", "run"], api, db_path, limits=False)
                    await api.wait_until(lambda: polls(api) > seen_polls, timeout=60, what="a poll after the restart")
                    restarts.append(time.monotonic() - started)
                    if not playing(db_path):
                        continue  # the match ended before the kill: the next round opens one
                    moved = await moves_again(api, sim, db_path, rng)
                    caught_up = moved and await catches_up(db_path)
                    if not caught_up:
                        stalls += 1
                        why = "messages behind the committed state" if moved else "no two moves in 20 s"
                        print(
                            f"kill point {point}: stalled ({why}; table {table_row(db_path)})",
                            file=sys.stderr,
                            flush=True,
                        )
                    if (point + 1) % 10 == 0:
                        print(f"{point + 1} kill points, {stalls} stalls", file=sys.stderr, flush=True)
                moves = committed_moves(db_path) - start_moves
            finally:
                await stop_process(process)
    return {
        "kill points": kills,
        "stalls": stalls,
        "moves committed": moves,
        "matches": matches,
        "restart to first poll p50 (s)": statistics.median(restarts),
        "restart to first poll max (s)": max(restarts),
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    figures = await kill_points(args.kills, args.seed)
    for name, value in figures.items():
        print(f"{name}: {value:.2f}" if isinstance(value, float) else f"{name}: {value}")


if __name__ == "__main__":
    asyncio.run(main())
