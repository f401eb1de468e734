"""Drill: chats that change under their tables, and a window of Telegram faults.

What it does: starts the fake Bot API on 127.0.0.1 and the real bot against it (in-process, as
the end-to-end tests do), with a short turn timer so that every table keeps moving by itself.

1. Dead chats. Four groups play Kadi; then, with no update telling the bot, group A is upgraded
   to a supergroup (calls to the old id fail with 400 `migrate_to_chat_id`), the bot is removed
   from group B (403), group C is deleted (403), and group D goes on as the control. For
   `--seconds` the tables run; the drill counts the calls made to each dead chat id before and
   after its first failure, and prints them per minute (goal: 0 after the first failure). It
   also checks that A's table plays on in the supergroup and that B's and C's tables ended.
2. Fault window. `--tables` groups play while, for `--window` seconds, each call that changes a
   chat fails with probability `--fault` (5xx, a connection cut at once, or a call that hangs
   past the client's 5 s read timeout); moves are applied all along (each acknowledged move is
   committed). When the window ends the drill measures the time until every table converged (no
   table behind its committed revision, nothing queued, no retry pending, every message showing
   its render), and the calls per second during the window (no tight loop).

Run: python benchmarks/drill_chat_changes.py [--seconds 60] [--tables 6] [--window 15] [--fault 0.3]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.demo import Simulation, demo_settings  # noqa: E402
from bot.runner import running_application  # noqa: E402
from fakeapi import FakeBotAPI  # noqa: E402
from handlers.delivery.screens import POST_ONCE, table_screens  # noqa: E402
from tests.tables.matches import winning_policy  # noqa: E402

GROUPS = {"upgraded": -1001000000101, "removed": -1001000000102, "deleted": -1001000000103, "control": -1001000000104}
SUPERGROUP = -1001000000199


def first_failure(api: FakeBotAPI, chat_id: int, since: int) -> int | None:
    """The index (in api.calls) of the first call to `chat_id` after `since` (the chat changed at
    `since`: every call to it fails)."""
    for index in range(since, len(api.calls)):
        method, params = api.calls[index]
        if str(params.get("chat_id")) == str(chat_id):
            return index
    return None


async def open_tables(api, application, count, base, first_user):
    karata = application.bot_data["karata"]
    sims, tables = [], []
    for index in range(count):
        sim = Simulation.create(api, 3, index, group_id=base - index, first_user=first_user + 10 * index)
        await sim.open_table("kadi", "hand_size=5 points_limit=500")
        sims.append(sim)
        tables.append(await karata.store.live_table(sim.group_id, 0))
    return sims, tables


async def dead_chats(seconds: float) -> None:
    with tempfile.TemporaryDirectory() as folder:
        async with FakeBotAPI() as api:
            sims = {
                name: Simulation.create(api, 3, 1, group_id=chat, first_user=3001 + 10 * number)
                for number, (name, chat) in enumerate(GROUPS.items())
            }
            settings = demo_settings(api, f"{folder}/karata.db", KARATA_TURN_SECONDS=2, KARATA_WARN_SECONDS=0)
            async with running_application(settings) as application:
                karata = application.bot_data["karata"]
                for sim in sims.values():
                    await sim.open_table("kadi", "hand_size=5 points_limit=500")
                tables = {name: await karata.store.live_table(sim.group_id, 0) for name, sim in sims.items()}
                mark = len(api.calls)
                started = time.monotonic()
                api.migrate_group(GROUPS["upgraded"], SUPERGROUP, notify=())
                api.remove_bot(GROUPS["removed"], notify=False)
                api.delete_group(GROUPS["deleted"])
                await asyncio.sleep(seconds)
                elapsed = time.monotonic() - started
                print(f"dead chats: {seconds:.0f} s of tables timing out every 2 s (4 groups, 3 dead)")
                for name in ("upgraded", "removed", "deleted"):
                    chat = GROUPS[name]
                    first = first_failure(api, chat, mark)
                    calls = api.calls_to(chat, mark)
                    after = len(api.calls_to(chat, first + 1)) if first is not None else 0
                    print(
                        f"  {name:9} calls to the dead id: {len(calls)} in all, "
                        f"{after} after the first failure ({after / elapsed * 60:.1f} a minute)"
                    )
                upgraded = await karata.store.get_table(tables["upgraded"].table_id)
                moved = len(api.bot_messages(SUPERGROUP))
                print(
                    f"  upgraded: table now in chat {upgraded.chat_id} ({upgraded.status}, version "
                    f"{upgraded.version}), {moved} bot messages in the supergroup"
                )
                for name in ("removed", "deleted"):
                    row = await karata.store.get_table(tables[name].table_id)
                    print(f"  {name}: table {row.status} ({row.closed_reason})")
                control = await karata.store.get_table(tables["control"].table_id)
                print(f"  control: table {control.status}, version {control.version}")


async def converged(api, karata, table_ids) -> bool:
    if await karata.store.tables_behind() or karata.publisher.busy() or karata.publisher.retrying():
        return False
    for table_id in table_ids:
        loaded = await karata.service.load(table_id)
        readers = await karata.publisher.readers(loaded.table.chat_id, [seat.user_id for seat in loaded.table.seats])
        shown = await karata.store.screens_of(table_id)
        for slot, screen in table_screens(loaded, readers, karata.publisher.clock()).items():
            if screen.kind == POST_ONCE:
                continue
            current = shown.get(slot)
            message = api.message(current.chat_id, current.message_id) if current and current.message_id else None
            if message is None or message.text != screen.text:
                return False
    return True


async def fault_window(count: int, window: float, fault: float) -> None:
    with tempfile.TemporaryDirectory() as folder:
        async with FakeBotAPI() as api:
            settings = demo_settings(api, f"{folder}/karata.db")
            async with running_application(settings) as application:
                karata = application.bot_data["karata"]
                _sims, tables = await open_tables(api, application, count, -1001000000201, 4001)
                acknowledged = {table.table_id: 0 for table in tables}
                mark = len(api.calls)
                api.inject_faults(fault, seed=11)
                started = time.monotonic()
                while time.monotonic() - started < window:
                    for table in tables:
                        loaded = await karata.service.load(table.table_id)
                        if loaded.table.status != "playing":
                            continue
                        player = loaded.game.to_act(loaded.state)[0]
                        action = winning_policy(loaded.game, loaded.state, player, "nobody")
                        if (await karata.service.play.act(table.table_id, player, loaded.table.version, action)).ok:
                            acknowledged[table.table_id] += 1
                    await asyncio.sleep(0.5)
                api.stop_faults()
                calls = len(api.calls) - mark
                stopped = time.monotonic()
                while not await converged(api, karata, list(acknowledged)):
                    if time.monotonic() - stopped > 180:
                        print("  did not converge within 180 s")
                        break
                    await asyncio.sleep(0.05)
                took = time.monotonic() - stopped
                lost = 0
                for table_id, count_acked in acknowledged.items():
                    stored = len(await karata.store.actions_of(table_id))
                    lost += max(0, count_acked - stored)  # the deal is no action: every move is one
                print(f"fault window: {count} tables, {window:.0f} s, p={fault} ({dict(api.faults)})")
                print(f"  {sum(acknowledged.values())} acknowledged moves, {lost} lost")
                print(f"  {calls} calls in the window ({calls / window:.1f} a second)")
                print(f"  converged {took:.1f} s after the window ended")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--window", type=float, default=15)
    parser.add_argument("--fault", type=float, default=0.3)
    arguments = parser.parse_args()
    asyncio.run(dead_chats(arguments.seconds))
    asyncio.run(fault_window(arguments.tables, arguments.window, arguments.fault))


if __name__ == "__main__":
    main()
