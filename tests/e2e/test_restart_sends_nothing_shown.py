"""A restart sends nothing a chat already shows: the edits delivered before a kill are recorded
even while their pass still waits (here the group's table, held up as by its flood budget)."""

from __future__ import annotations

import asyncio

import pytest

from fakeapi.flood import COUNTED_METHODS
from tests.e2e.conftest import simulation
from tests.e2e.test_crashes_and_strangers import crash
from tests.e2e.test_kadi_table import open_kadi

pytestmark = pytest.mark.asyncio


class GroupHeldUp:
    """The bot, except that edits of the group's messages never finish (the process dies first)."""

    def __init__(self, bot, group_id):
        self._bot, self._group_id = bot, group_id

    def __getattr__(self, name):
        return getattr(self._bot, name)

    async def edit_message_text(self, *args, **kwargs):
        if kwargs.get("chat_id") == self._group_id:
            await asyncio.Event().wait()
        return await self._bot.edit_message_text(*args, **kwargs)


async def test_edits_shown_before_a_kill_are_not_sent_again(api, start_bot):
    sim = simulation(api)
    amina = sim.users[0]
    async with start_bot() as application:
        await open_kadi(api, application, sim, hands=[["7H", "KS"], ["7S", "9C"], ["7D", "9D"]], start="6H")
        publisher = application.bot_data["karata"].publisher
        await publisher.settle()
        publisher.outbox.bot = GroupHeldUp(publisher.outbox.bot, sim.group_id)
        hand = sim.hand_message(amina)
        press = next(data for row in hand.buttons for label, data in row if label == "7♥️")
        assert not (await api.wait_for_answer(await api.press(amina, amina.id, hand.message_id, press))).get("text")
        await publisher.settle(private_only=True)
        await api.wait_until(lambda: not publisher.saving(), what="the hands' digests written")
        crash(application)  # killed while the group's table waits
    since = len(api.calls)
    async with start_bot() as application:
        await application.bot_data["karata"].publisher.settle()
        private = [
            params
            for method, params in api.calls[since:]
            if method.lower() in COUNTED_METHODS and str(params.get("chat_id")) != str(sim.group_id)
        ]
        assert private == [], "the hands already showed the move"
        assert not [error for error in api.errors if "not modified" in error[3]]
        assert "Waiting for Chausiku" in sim.table_message().plain, "the group's table catches up"
