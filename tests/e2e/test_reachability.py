"""Whether a player can be written to has one owner, the chat keeper: every refusal reaches it,
whichever part of the bot made the call that Telegram refused."""

from __future__ import annotations

import pytest
from telegram.error import Forbidden

from handlers.delivery.flood import FloodGate, FloodLimiter
from tests.e2e.conftest import simulation
from tests.e2e.helpers import play_a_match_amina_wins
from tests.e2e.test_records import ask

pytestmark = pytest.mark.asyncio


async def test_every_call_a_chat_refuses_is_reported_with_its_chat():
    limiter = FloodLimiter(FloodGate())
    told = []
    limiter.refused = lambda chat_id, reason: told.append((chat_id, reason))

    async def refused_call():
        raise Forbidden("Forbidden: bot was blocked by the user")

    with pytest.raises(Forbidden):
        await limiter.process_request(refused_call, (), {}, "sendDocument", {"chat_id": 42}, None)
    assert told == [(42, "Forbidden: bot was blocked by the user")]


async def test_a_block_the_bot_never_heard_of_is_learnt_from_the_first_refused_call(api, start_bot):
    sim = simulation(api)
    amina, baraka, _chausiku = sim.users
    async with start_bot() as application:
        karata = application.bot_data["karata"]
        await play_a_match_amina_wins(application, sim)
        await api.user_starts_bot(baraka)
        await api.wait_until(lambda: _dm_ok(karata, baraka.id), what="Baraka's chat open")
        baraka.blocked = True  # blocked while the update saying so was lost
        history = await ask(api, amina, sim.group_id, "/history")
        await api.wait_for_answer(await api.press_text(baraka, sim.group_id, history.message_id, "📄 1"))

        async def closed():
            return not await _dm_ok(karata, baraka.id)

        await api.wait_until(closed, what="Baraka's chat known closed")
        again = await api.press_text(baraka, sim.group_id, history.message_id, "📄 1")
        assert "Open my private chat" in (await api.wait_for_answer(again))["text"]


async def _dm_ok(karata, user_id):
    user = await karata.store.get_user(user_id)
    return user is not None and user.dm_ok
