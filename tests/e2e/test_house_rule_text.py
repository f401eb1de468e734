"""Lopti's round winner types a house rule in the private chat; it is escaped and shown to all."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import simulation
from tests.e2e.helpers import table_state

pytestmark = pytest.mark.asyncio


async def play_until_authoring(api, application, sim):
    sim.application = application
    await sim.open_table("lopti")
    table = await application.bot_data["karata"].store.live_table(sim.group_id, 0)
    for _ in range(3000):
        loaded = await table_state(application, table.table_id)
        view = loaded.game.view(loaded.state, None)
        if view.get("phase") == "authoring":
            return loaded, view["awaiting_rule"]
        assert await sim.step()
    raise AssertionError("no round was won")


async def test_the_winner_writes_a_text_rule_that_everyone_sees(api, start_bot):
    sim = simulation(api, count=2, seed=21)
    async with start_bot() as application:
        loaded, winner = await play_until_authoring(api, application, sim)
        author = next(user for user in sim.users if str(user.id) == winner)
        assert "house rule" in api.bot_messages(author.id)[-1].plain
        await api.send_text(author, author.id, "x" * 281)
        too_long = await api.wait_until(lambda: "280" in (api.last_message(author.id).plain or ""), what="refusal")
        assert too_long
        rule = "<b>Sevens</b> & eights: say \"jambo\" when you play them"
        await api.send_text(author, author.id, rule)

        async def shown():
            await application.bot_data["karata"].publisher.flush()
            return rule in (sim.table_message().plain or "")

        await api.wait_until(shown, what="the rule on the table")
        after = await table_state(application, loaded.table.table_id)
        assert after.game.round_number(after.state) == loaded.game.round_number(loaded.state) + 1
    assert not [error for error in api.errors if "parse" in error[3]]
