"""Whole matches at the fastest pace players can press, with Telegram's limits kept by the bot and
enforced by the fake: no call Telegram would refuse, and a few calls per move."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.demo import Simulation
from tests.e2e.conftest import TELEGRAM_SECOND, simulation
from tests.e2e.helpers import SHORT_MATCHES, sensible_player

pytestmark = [pytest.mark.asyncio, pytest.mark.long]


def over(loaded) -> bool:
    if loaded.table.status != "playing":
        return True
    return loaded.game.name == "lopti" and loaded.game.round_number(loaded.state) >= 2


@pytest.mark.parametrize("game", sorted(SHORT_MATCHES))
async def test_a_whole_match_within_telegrams_limits(api, start_bot, game):
    players, options = SHORT_MATCHES[game]
    sim = simulation(api, count=players, seed=3)
    sim.choose = sensible_player(random.Random(3))
    api.flood_control.enforce = True
    rates = {"KARATA_GROUP_RATE": 20, "KARATA_BOT_RATE": 30}
    async with start_bot(**rates, KARATA_ROUND_PAUSE_SECONDS=TELEGRAM_SECOND) as application:
        karata = application.bot_data["karata"]
        sim.application = application
        sim.private_only = True  # players press as soon as their own chat shows the move
        await sim.open_table(game, options)
        table = await karata.store.live_table(sim.group_id, 0)
        before = api.flood_stats()
        for _move in range(3000):
            loaded = await karata.service.load(table.table_id)
            if over(loaded):
                break
            if karata.service.paused(loaded.table):
                await asyncio.sleep(0.05)  # the round's results are being read
                continue
            await sim.step()
        assert over(loaded), f"{game} did not end"
        await karata.publisher.settle()
        after = api.flood_stats()
        moves = loaded.table.version - 1
        calls = after.delivered - before.delivered
        group = after.delivered_per_chat.get(sim.group_id, 0) - before.delivered_per_chat.get(sim.group_id, 0)
        assert after.violations == 0, "no call Telegram would refuse"
        assert calls / moves <= 3.0, f"{calls} calls for {moves} moves"
        assert group / moves <= 1.0, f"{group} group calls for {moves} moves"
        assert max(after.busiest_minute.values()) <= 20


async def test_a_flood_wait_in_one_group_holds_up_no_other_table_and_no_press(api, start_bot):
    tables = [
        Simulation.create(api, 2, 5, "en", group_id=-1001000000001),
        Simulation.create(api, 2, 6, "en", group_id=-1001000000002, first_user=2001),
    ]
    api.flood_control.enforce = True
    async with start_bot(KARATA_GROUP_RATE=20, KARATA_BOT_RATE=30) as application:
        karata = application.bot_data["karata"]
        for sim in tables:
            sim.application, sim.private_only = application, True
            await sim.open_table("kadi")
        await karata.publisher.settle()
        banned, free = tables
        # Telegram answers the next call to this group with a 429: wait a minute (6 s here).
        api.flood_chat(banned.group_id, 60)
        ban = 60 * TELEGRAM_SECOND
        started = asyncio.get_running_loop().time()
        for sim in (banned, free, banned, free):
            version = (await karata.store.live_table(sim.group_id, 0)).version
            while (await karata.store.live_table(sim.group_id, 0)).version == version:
                pressed = len(api.queries)
                assert await sim.step(), "somebody has a button"
                latencies = [query.latency for query in list(api.queries.values())[pressed:]]
                assert latencies and max(latencies) < 1.0, "a press is answered at once, banned group or not"
        free_edit = await api.wait_until(
            lambda: _edited_after(free.table_message(), started), timeout=ban, what="the free table"
        )
        assert free_edit - started < ban, "the other group's table does not wait for the ban"
        await karata.publisher.settle()
        stats = api.flood_stats()
        assert stats.ban_violations == [], "nothing reached the banned group before its wait was over"
        assert _edited_after(banned.table_message(), started) - started >= ban, "its table came after the wait"
        assert stats.refused["injected"] == 1 and stats.violations == 0


def _edited_after(message, moment):
    later = [when for when in message.version_times if when > moment]
    return later[-1] if later else None


async def test_a_table_held_up_inside_the_bot_holds_up_no_press_at_another_table(api, start_bot):
    held, free = (
        Simulation.create(api, 2, 5, "en", group_id=-1001000000001),
        Simulation.create(api, 2, 6, "en", group_id=-1001000000002, first_user=2001),
    )
    async with start_bot() as application:
        karata = application.bot_data["karata"]
        for sim in (held, free):
            sim.application, sim.private_only = application, True
            await sim.open_table("kadi")
        held_table = await karata.store.live_table(held.group_id, 0)
        free_table = await karata.store.live_table(free.group_id, 0)
        lock = karata.service.lock(held_table.table_id)
        await lock.acquire()  # something slow holds the first table (a long publish, a slow disk)
        try:
            user, message, data = next(
                (user, message, data)
                for user in held.users
                if (message := held.hand_message(user)) is not None
                for row in message.buttons
                for _, data in row
                if (data or "").startswith("T:")
            )
            waiting = await api.press(user, user.id, message.message_id, data)
            assert await free.step(), "the other table's player has buttons"
            assert (await karata.store.get_table(free_table.table_id)).version > free_table.version, "it moved on"
            assert api.queries[waiting].answered_at is None, "the held table's press is still waiting its turn"
        finally:
            lock.release()
        assert await api.wait_for_answer(waiting, timeout=10) is not None
