"""Defects of the old publisher, each with the test that would have caught it."""

from __future__ import annotations

import gc

import pytest

from tests.e2e.conftest import simulation
from tests.e2e.helpers import table_state
from tests.e2e.test_kadi_table import open_kadi

pytestmark = pytest.mark.asyncio


async def test_a_table_whose_message_was_deleted_comes_back_in_its_own_forum_topic(api, start_bot):
    sim = simulation(api)
    api.chats[sim.group_id].is_forum = True
    topic = api.add_topic(sim.group_id, "Kadi")
    async with start_bot() as application:
        karata = application.bot_data["karata"]
        await api.send_text(sim.users[0], sim.group_id, "/newgame kadi", thread_id=topic)
        lobby = await api.wait_until(sim.table_message, what="the lobby")
        lobby.deleted = True  # an admin tidied the topic up
        table = await karata.store.live_table(sim.group_id, topic)
        link = next(data for row in lobby.buttons for _, data in row if data.startswith("https://"))
        await api.open_link(sim.users[1], link)
        await api.settle(quiet=0.05)
        await karata.publisher.settle()
        again = sim.table_message()
        assert again.message_id != lobby.message_id and not again.deleted
        assert again.thread_id == topic, "the table stays in its topic"
        assert (await karata.store.screens_of(table.table_id))["table"].message_id == again.message_id


async def test_the_table_message_posted_again_is_the_one_the_bot_keeps_editing(api, start_bot):
    sim = simulation(api)
    amina = sim.users[0]
    async with start_bot() as application:
        karata = application.bot_data["karata"]
        table = await open_kadi(api, application, sim, hands=[["7H", "KS"], ["7S", "9C"]], start="6H")
        await karata.publisher.settle()
        old = sim.table_message()
        await api.send_text(amina, sim.group_id, "/table")
        hand = sim.hand_message(amina)
        press = next(data for row in hand.buttons for label, data in row if label == "7♥️")
        await api.wait_for_answer(await api.press(amina, amina.id, hand.message_id, press))
        await karata.publisher.settle()
        await api.settle(quiet=0.05)
        live = [message for message in api.bot_messages(sim.group_id) if "Round" in (message.plain or "")]
        assert len(live) == 1 and live[0].message_id != old.message_id, "one table, at the bottom"
        loaded = await table_state(application, table.table_id)
        waiting = loaded.table.names[loaded.game.to_act(loaded.state)[0]]
        assert waiting != amina.first_name and f"Waiting for {waiting}" in live[0].plain, "showing the latest move"
    async with start_bot() as application:
        await application.bot_data["karata"].publisher.settle()
        after = [message for message in api.bot_messages(sim.group_id) if "Round" in (message.plain or "")]
        assert [message.message_id for message in after] == [live[0].message_id], "no duplicate after a restart"
        assert (await table_state(application, table.table_id)).table.version > 1


async def test_a_closed_table_leaves_no_timer_and_idle_tables_hold_no_lock(api, start_bot):
    sim = simulation(api)
    async with start_bot(KARATA_TURN_SECONDS=60, KARATA_NUDGE_SECONDS=30) as application:
        karata = application.bot_data["karata"]
        await sim.open_table("kadi")
        table = await karata.store.live_table(sim.group_id, 0)
        assert karata.service.timers.armed(table.table_id), "a running table has timers"
        await karata.service.lobby.cancel(table.table_id, sim.users[0].id, False)
        assert karata.service.timers.armed(table.table_id) == {}
        await karata.publisher.settle()
        gc.collect()
        assert len(karata.service._locks) == 0
