"""The publisher's memory follows what is live: a long-running bot keeps a record for each table
still being played or published, and none for a finished one."""

from __future__ import annotations

import pytest

from bot.demo import GROUP_ID, Simulation
from tests.e2e.conftest import simulation
from tests.e2e.helpers import play_a_match_amina_wins

pytestmark = pytest.mark.asyncio


async def test_a_finished_and_published_table_leaves_no_record_in_the_publisher(api, start_bot):
    sim = simulation(api)
    async with start_bot() as application:
        karata = application.bot_data["karata"]
        await sim.open_table("kadi")
        live = await karata.store.live_table(sim.group_id, 0)
        await karata.publisher.settle()
        assert live.table_id in karata.publisher.remembered(), "a live table's messages are remembered"

        other = Simulation.create(api, 3, seed=7, group_id=GROUP_ID - 1, first_user=2001)
        loaded = await play_a_match_amina_wins(application, other)
        assert loaded.table.status == "finished"
        assert await karata.publisher.settle(), "every message of the finished match was delivered"
        assert loaded.table.table_id not in karata.publisher.remembered()
        assert live.table_id in karata.publisher.remembered(), "the other group's table is still live"
