"""Records in a fleet of two bots on one database: /top, /stats and /history count the bot's own
matches, or every bot's where the operator sets KARATA_RECORDS=fleet (bot/settings.py)."""

from __future__ import annotations

import pytest

from tables.records import ensure_built
from tables.store import Store
from tests.tables.matches import AMINA, BARAKA, GROUP, OTHER_GROUP, open_service, play_match

pytestmark = pytest.mark.asyncio

BOT_A, BOT_B = 111, 222


async def two_bots_played(database: str) -> None:
    """Bot A: Amina beats Baraka in the group. Bot B, in the same group and another: Baraka wins both."""
    bot_a, bot_b = await open_service(database, BOT_A), await open_service(database, BOT_B)
    await play_match(bot_a, GROUP, [AMINA, BARAKA], AMINA)
    await play_match(bot_b, GROUP, [AMINA, BARAKA], BARAKA)
    await play_match(bot_b, OTHER_GROUP, [AMINA, BARAKA], BARAKA)
    await bot_a.store.close()
    await bot_b.store.close()


async def records_of(database: str, bot_id: int, fleet: bool):
    store = Store(database, bot_id, fleet_records=fleet)
    await store.open()
    return store


async def test_each_bot_counts_its_own_matches_unless_the_fleet_is_turned_on(database):
    await two_bots_played(database)
    own_a, own_b = await records_of(database, BOT_A, False), await records_of(database, BOT_B, False)
    fleet = await records_of(database, BOT_A, True)

    board_a = await own_a.records.board(GROUP, "kadi")
    assert [(ranked.name, ranked.matches) for ranked in board_a.provisional] == [("Amina", 1), ("Baraka", 1)]
    [baraka_a] = await own_a.records.of_player(BARAKA.user_id, None)
    assert (baraka_a.played, baraka_a.won) == (1, 0)
    [baraka_b] = await own_b.records.of_player(BARAKA.user_id, None)
    assert (baraka_b.played, baraka_b.won) == (2, 2)
    assert len(await own_a.records.history(GROUP)) == 1
    assert await own_a.records.games_rated(OTHER_GROUP) == [], "bot B's group is not bot A's record"

    [baraka] = await fleet.records.of_player(BARAKA.user_id, None)
    assert (baraka.played, baraka.won) == (3, 2)
    [baraka_here] = await fleet.records.of_player(BARAKA.user_id, GROUP)
    assert (baraka_here.played, baraka_here.won) == (2, 1)
    board = await fleet.records.board(GROUP, "kadi")
    assert sorted((ranked.name, ranked.matches) for ranked in board.provisional) == [("Amina", 2), ("Baraka", 2)]
    assert len(await fleet.records.history(GROUP)) == 2
    assert baraka.rating not in (baraka_a.rating, baraka_b.rating), "the fleet's rating is its own"
    for store in (own_a, own_b, fleet):
        await store.close()


async def test_a_rebuild_gives_each_bot_and_the_fleet_the_same_records(database):
    await two_bots_played(database)
    before = {}
    for bot_id, fleet in ((BOT_A, False), (BOT_B, False), (BOT_A, True)):
        store = await records_of(database, bot_id, fleet)
        before[bot_id, fleet] = (
            await store.records.board(GROUP, "kadi"),
            await store.records.of_player(BARAKA.user_id, None),
        )
        await store.close()
    store = await records_of(database, BOT_A, False)
    await store.database.execute("UPDATE records_built SET formula = 0")
    await ensure_built(store.database)
    await store.close()
    for (bot_id, fleet), seen in before.items():
        store = await records_of(database, bot_id, fleet)
        assert (await store.records.board(GROUP, "kadi"), await store.records.of_player(BARAKA.user_id, None)) == seen
        await store.close()
