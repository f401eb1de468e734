"""A bot killed with `kill -9` and started again keeps within a group's 20 calls a minute: what the
killed process sent in its last minute still counts (docs/DECISIONS.md). Telegram's limits run
faster here, in the bot and the fake alike, but slow enough that a start fits well in its minute."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.demo import DEMO_TOKEN
from fakeapi import FakeBotAPI
from tests.e2e.conftest import simulation
from tests.e2e.test_process import start_karata

pytestmark = [pytest.mark.asyncio, pytest.mark.long]

# Telegram's minute lasts 30 s here: a start, however slow the machine, takes less.
TELEGRAM_SECOND = 0.5
# Bounds against a hung test, not speeds.
START_SECONDS = 120
ASK_SECONDS = 120


async def start(api: FakeBotAPI, db_path: str) -> tuple[asyncio.subprocess.Process, asyncio.Future]:
    """`karata run` on the faster Telegram clock; its output is read as it comes (a full pipe
    would stop it)."""
    process = await start_karata(api.base_url, db_path, KARATA_TELEGRAM_SECOND=str(TELEGRAM_SECOND))
    return process, asyncio.gather(process.stdout.read(), process.stderr.read())


async def kill_9(process: asyncio.subprocess.Process, output: asyncio.Future) -> None:
    process.kill()
    await process.wait()
    await output


async def polling(api: FakeBotAPI, runs: int) -> None:
    """Wait until the bot's start number `runs` has set its commands and asks for updates."""

    def asking() -> bool:
        methods = [method for method, _ in api.calls]
        starts = [index for index, method in enumerate(methods) if method == "setMyCommands"]
        return len(starts) >= runs and "getUpdates" in methods[starts[runs - 1] :]

    await api.wait_until(asking, timeout=START_SECONDS, what=f"start number {runs}")


async def ask_until(api: FakeBotAPI, user, group: int, done) -> None:
    """A member asks for /help in the group (each answer is a post there) until `done()`."""
    deadline = time.monotonic() + ASK_SECONDS
    while not done():
        assert time.monotonic() < deadline, "the group never got the answers the test waits for"
        await api.send_text(user, group, "/help@karata_bot")
        await asyncio.sleep(0.05)


async def test_a_restart_after_kill_9_keeps_within_the_groups_minute(tmp_path):
    db_path = str(tmp_path / "k.db")
    async with FakeBotAPI(token=DEMO_TOKEN, flood_limits=True, telegram_second=TELEGRAM_SECOND) as api:
        sim = simulation(api, count=2)
        group, asker = sim.group_id, sim.users[0]
        killed = await start(api, db_path)
        try:
            await polling(api, 1)
            await ask_until(api, asker, group, lambda: api.flood_control.in_window(group) >= 18)
        finally:
            await kill_9(*killed)  # the group's minute is nearly spent
        before = api.flood_stats().delivered_per_chat[group]
        restarted = await start(api, db_path)
        try:
            await polling(api, 2)
            assert api.flood_control.in_window(group) >= 18, "the new process started inside that minute"
            await ask_until(api, asker, group, lambda: api.flood_stats().delivered_per_chat[group] >= before + 5)
        finally:
            await kill_9(*restarted)
        stats = api.flood_stats()
        assert stats.violations == 0, stats.refused
        assert stats.busiest_minute[group] <= 20
