"""Bot API calls an arena night's standings cost in its group, per minute, at 5, 10 and 30 players.

(Not `karata arena`, which has computer players play each other offline: this is a group's arena
night, /arena.)

What it does: the real standings board (handlers/chat/arena_nights.py `ArenaBoard`, its renderer and
its coalescing) draws an arena whose life is simulated on a fast clock: every player plays Kadi
matches whose length is drawn between 3 and 8 minutes, tables are seated by the real seating
(`seatings`, tables of three, best scores together) and scored by the real scoring (`scored`);
each table's start and end tells the board, as the arena service does. A fake bot counts the
board's calls to the group (sends and edits) and to private chats (each player's line at the
end), per arena minute. An arena minute lasts 60 x SCALE seconds here, and the board's edit
interval is scaled alike, so the counts are those of a real arena.

The tables' own messages cost the group nothing: an arena table's hands (with the table above
them) go to the players' private chats, against the bot-wide 30 a second, not the group's 20 a
minute; so the group's budget is the standings' and whatever else the group does (its own
table, commands), which keeps what the standings leave.

Two paces: matches of 3 to 8 minutes (Kadi as groups play it), and of half a minute to one (a
stress case, where the edit interval is what bounds the calls).

Run: python benchmarks/bench_arena.py [--minutes 30] [--seed 1] [--scale 0.01]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from handlers.chat.arena_nights import EDIT_EVERY_SECONDS, ArenaBoard  # noqa: E402
from tables.arena_nights import (  # noqa: E402
    OVER,
    RUNNING,
    ArenaRow,
    Entrant,
    Finished,
    Playing,
    Size,
    Standings,
    scored,
    seatings,
)
from tables.seasons import Seated  # noqa: E402

GROUP = -100777
KADI = Size(usual=3, least=2, most=7)
GROUP_BUDGET = 20


@dataclass
class FakeBot:
    """Counts the board's calls: (arena minute, "group" or "private")."""

    clock: callable
    calls: Counter = field(default_factory=Counter)
    serial: int = 0

    async def send_message(self, chat_id, text, **_kwargs):
        self.calls[(int(self.clock()), "group" if chat_id < 0 else "private")] += 1
        self.serial += 1
        return SimpleNamespace(message_id=self.serial)

    async def edit_message_text(self, _text, chat_id, _message_id, **_kwargs):
        self.calls[(int(self.clock()), "group")] += 1


class Simulated:
    """An arena's state as the service would keep it, and the store's few calls the board makes."""

    def __init__(self, players: int, minutes: int):
        self.arena = ArenaRow(1, GROUP, 0, "kadi", {}, 1, minutes * 60.0, False, RUNNING, "0" * 12,
                              [Entrant(user, f"Player {user}") for user in range(1, players + 1)], 0.0, None, "",
                              False, 0.0)  # fmt: skip
        self.playing: dict[int, list[int]] = {}
        self.finished: list[Finished] = []
        self.minutes = minutes
        self.arenas = self  # the board reads `store.arenas` and `arenas.standings` from one object

    async def standings(self, _arena_id: int) -> Standings:
        lines = scored((match.seats for match in self.finished), self.arena.names)
        playing = [Playing(table, [f"Player {user}" for user in users], users) for table, users in self.playing.items()]
        return Standings(self.arena, lines, playing, self.minutes, list(self.finished), dict(self.arena.names))

    async def chat_language(self, _chat_id: int) -> str:
        return "en"

    async def languages_of(self, users) -> dict[int, str]:
        return dict.fromkeys(users, "en")

    async def record_message(self, _arena_id: int, message_id: int | None, shown: str) -> None:
        self.arena.message_id, self.arena.shown = message_id, shown

    async def mark_told(self, _arena_id: int) -> None:
        self.arena.told = True


async def run(players: int, minutes: int, seed: int, scale: float, lengths: tuple[float, float]) -> tuple[Counter, int]:
    rng = random.Random(seed)
    loop = asyncio.get_running_loop()
    started = loop.time()
    minute_of = lambda: (loop.time() - started) / (60 * scale)  # noqa: E731
    arena = Simulated(players, minutes)
    bot = FakeBot(minute_of)
    board = ArenaBoard(bot, arena, arena, lambda: "karata_bot", "en", every=EDIT_EVERY_SECONDS * scale)
    tables = iter(range(1, 10**6))
    running: set[asyncio.Task[None]] = set()

    def seat() -> None:
        if minute_of() >= minutes:
            return
        busy = {user for users in arena.playing.values() for user in users}
        lines = {line.user_id: line.points for line in scored((m.seats for m in arena.finished), arena.arena.names)}
        waiting = sorted((user for user in arena.arena.names if user not in busy), key=lambda user: -lines[user])
        for people, _computers in seatings(waiting, KADI, False):
            table = next(tables)
            arena.playing[table] = people
            task = loop.create_task(play(table, people))
            running.add(task)
            task.add_done_callback(running.discard)
        board.arena_changed(1)

    async def play(table: int, people: list[int]) -> None:
        await asyncio.sleep(rng.uniform(*lengths) * 60 * scale)
        places = rng.sample(range(1, len(people) + 1), len(people))
        arena.finished.append(Finished(table, loop.time(), [Seated(table, u, p) for u, p in zip(people, places)]))
        del arena.playing[table]
        seat()
        board.arena_changed(1)

    seat()
    await asyncio.sleep(minutes * 60 * scale)
    while running:
        await asyncio.gather(*running)
    arena.arena.status = OVER
    board.arena_changed(1)
    while not arena.arena.told:
        await asyncio.sleep(scale)
    return bot.calls, len(arena.finished)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--scale", type=float, default=0.01, help="seconds of this run per arena second")
    args = parser.parse_args()
    for lengths in ((3.0, 8.0), (0.5, 1.0)):
        print(f"Arena of {args.minutes} minutes in Kadi, matches of {lengths[0]:g} to {lengths[1]:g} minutes; standings "
              f"edited at most every {EDIT_EVERY_SECONDS:.0f} s. Group calls (the group's budget: {GROUP_BUDGET} a minute):")  # fmt: skip
        print(
            f"{'players':>8} {'matches':>8} {'mean/min':>9} {'max/min':>8} {'after the end':>14} {'left for the group':>19}"
        )
        for players in (5, 10, 30):
            calls, matches = asyncio.run(run(players, args.minutes, args.seed, args.scale, lengths))
            per_minute = [calls[(minute, "group")] for minute in range(args.minutes)]
            tail = sum(count for (minute, kind), count in calls.items() if kind == "group" and minute >= args.minutes)
            private = sum(count for (_minute, kind), count in calls.items() if kind == "private")
            busiest = max(per_minute)
            print(f"{players:>8} {matches:>8} {sum(per_minute) / len(per_minute):>9.1f} {busiest:>8} "
                  f"{tail:>14} {GROUP_BUDGET - busiest:>19}   (+{private} private lines at the end)")  # fmt: skip
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
