"""A timeout is told on the table (who ran out of time and what the bot did for them) and the
"your turn" nudge follows every turn after it; a round's end leaves no buttons of a finished
round in anyone's private chat."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import simulation
from tests.e2e.test_kadi_table import open_kadi, press, table_text

pytestmark = pytest.mark.asyncio

NOTHING_FITS = ["9C", "4D", "KS", "3S", "QC"]  # on 6♥: Amina can only draw
ONE_FITS = ["6S", "8C", "10D", "AC", "5C"]  # on 6♥: Baraka's 6♠ plays at once


def nudges(api, user):
    return [message for message in api.bot_messages(user.id, include_deleted=True) if "🔔" in (message.plain or "")]


async def test_a_timeout_is_told_and_the_next_nudge_is_sent(api, start_bot):
    sim = simulation(api, count=2)
    amina, baraka = sim.users
    async with start_bot(KARATA_TURN_SECONDS=2, KARATA_WARN_SECONDS=0, KARATA_NUDGE_SECONDS=0.2) as application:
        await open_kadi(api, application, sim, hands=[NOTHING_FITS, ONE_FITS])
        first = (await api.wait_until(lambda: nudges(api, amina), timeout=60, what="Amina's nudge"))[0]

        async def told():
            return "Time's up for Amina, so I moved for them: Amina drew 1 card." in await table_text(application, sim)

        await api.wait_until(told, timeout=60, what="the timeout on the table")
        await api.wait_until(
            lambda: api.message(amina.id, first.message_id).deleted, timeout=60, what="the old nudge gone"
        )
        await press(api, sim, baraka, "6♠")
        again = await api.wait_until(
            lambda: [m for m in nudges(api, amina) if not m.deleted], timeout=60, what="a new nudge"
        )
        assert again[0].message_id != first.message_id, "Amina's next turn has a nudge of its own"


async def test_a_round_end_leaves_no_buttons_of_the_finished_round(api, start_bot):
    sim = simulation(api, count=2)
    amina, baraka = sim.users
    async with start_bot(KARATA_ROUND_PAUSE_SECONDS=1.5) as application:
        table = await open_kadi(
            api, application, sim, hands=[["5H", "5S", "5D", "5C", "9C"], ["KC", "3D", "4S", "6D", "8D"]]
        )
        await press(api, sim, amina, "📣 Play + Kadi Moja!", "5♥️", "5♠", "5♦️", "5♣", "✔")
        await press(api, sim, baraka, "K♣")
        await press(api, sim, amina, "9♣")
        # The round is over: while its results are read, nobody holds a button of it.
        loaded = await application.bot_data["karata"].service.load(table.table_id)
        assert loaded.game.round_number(loaded.state) == 2 and loaded.table.paused_until is not None
        first = loaded.game.to_act(loaded.state)
        await application.bot_data["karata"].publisher.settle()
        edits = {}
        for user in sim.users:
            pressable = [
                data
                for message in api.bot_messages(user.id)
                for row in message.buttons
                for _, data in row
                if (data or "").startswith("T:")
            ]
            assert not pressable, f"{user.first_name} still sees buttons of the finished round"
            hand = api.bot_messages(user.id)[-1]
            # The new deal shows at once; who moves first waits for the pause, the others read
            # already what they will read after it.
            waits = "Next round in a moment" if str(user.id) in first else "Wait for your turn."
            assert waits in hand.plain and "Round 2" in hand.plain
            edits[user.id] = hand.edit_count
        # Then the player to move has its buttons, and the pause's end edits no other hand.
        await api.wait_until(
            lambda: sim.hand_message(amina) or sim.hand_message(baraka), timeout=60, what="the next deal"
        )
        await application.bot_data["karata"].publisher.settle()
        for user in sim.users:
            if str(user.id) not in first:
                assert api.bot_messages(user.id)[-1].edit_count == edits[user.id], (
                    f"{user.first_name}'s hand edited twice"
                )
