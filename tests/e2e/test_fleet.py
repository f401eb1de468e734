"""A fleet: two bots (two tokens, two Telegram worlds whose chat, user and update numbers overlap)
on one PostgreSQL database play 20 tables at once; each acts on its own tables only, and a
second process started with a token already running on the database refuses to start."""

from __future__ import annotations

import asyncio

import pytest

from bot.backup import DatabaseInUse
from bot.demo import DEMO_TOKEN, Simulation, demo_settings
from bot.runner import running_application
from fakeapi import FakeBotAPI
from tables.store import Store
from tests.conftest import postgres_database

pytestmark = [pytest.mark.asyncio, pytest.mark.long]

SECOND_TOKEN = "223456789:karata-second-demo-token"
GROUPS = 10  # per bot


def groups(api: FakeBotAPI) -> list[Simulation]:
    return [
        Simulation.create(api, 2, seed, group_id=-100_000 - seed, first_user=1000 + 10 * seed) for seed in range(GROUPS)
    ]


async def open_one_by_one(sims: list[Simulation]) -> None:
    for sim in sims:
        await sim.open_table("kadi")


async def play(sims: list[Simulation], presses: int) -> None:
    for _ in range(presses):
        for sim in sims:
            await sim.step()


async def test_two_bots_on_one_database_each_act_on_their_own_tables_only(request):
    url = postgres_database(request)
    async with (
        FakeBotAPI(token=DEMO_TOKEN) as first_api,
        FakeBotAPI(token=SECOND_TOKEN, bot_id=7000000002, bot_username="karata_two_bot") as second_api,
        running_application(demo_settings(first_api, url)) as first,
        running_application(demo_settings(second_api, url, BOT_TOKEN=SECOND_TOKEN)) as second,
    ):
        first_groups, second_groups = groups(first_api), groups(second_api)
        # Both Telegrams number their updates from the same first id: each bot handles its own.
        # The bots open their tables at the same time (a group after another: each opening
        # waits for its answers within the simulation's bounds).
        await asyncio.gather(*(open_one_by_one(sims) for sims in (first_groups, second_groups)))
        await asyncio.gather(play(first_groups, 4), play(second_groups, 4))

        stores = first.bot_data["karata"].store, second.bot_data["karata"].store
        owned = []
        for store, sims in zip(stores, (first_groups, second_groups), strict=True):
            tables = [await store.live_table(sim.group_id, 0) for sim in sims]
            assert all(table is not None and table.status == "playing" for table in tables)
            assert {table.bot_id for table in tables} == {store.bot_id}
            owned.append(tables)
        assert len({table.table_id for tables in owned for table in tables}) == 2 * GROUPS
        assert all(any(table.version > 1 for table in tables) for tables in owned), "both bots' players moved"

        # A table of the first bot is no table to the second (a press, a timer, a catch-up).
        service = second.bot_data["karata"].service
        for table in owned[0]:
            assert await service.load(table.table_id) is None
            player = table.seats[0].player
            assert not (await service.play.act(table.table_id, player, table.version, {"type": "draw"})).ok
        assert not set(await stores[1].tables_behind()) & {table.table_id for table in owned[0]}
        timed = {row["table_id"] for row in await stores[1].timed_tables()}
        assert timed == {table.table_id for table in owned[1]}

        with pytest.raises(DatabaseInUse, match="already runs on this database"):
            async with running_application(demo_settings(first_api, url)):
                pass

    # Every table's log has one action per version: no table was acted on by two bots at once.
    store = Store(url)
    await store.open()
    try:
        for table in owned[0] + owned[1]:
            versions = [row[0] for row in await store._all(
                "SELECT version FROM actions WHERE table_id = ? ORDER BY version", (table.table_id,))]  # fmt: skip
            stored = (await store._one("SELECT version FROM tables WHERE table_id = ?", (table.table_id,)))[0]
            assert versions == list(range(2, stored + 1))
    finally:
        await store.close()
