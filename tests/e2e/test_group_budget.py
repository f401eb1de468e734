"""The group's table is edited only when the table changed: a refused press and a tap that only
marks a card (or opens a choice) spend none of the group's 20 calls a minute."""

from __future__ import annotations

import pytest

from fakeapi.flood import COUNTED_METHODS
from handlers.presentation.callback_data import TreeNode
from handlers.presentation.render.seat import seen_by
from tests.e2e.conftest import simulation
from tests.e2e.helpers import table_state

pytestmark = pytest.mark.asyncio


def group_calls(api, group_id, since):
    return [
        method
        for method, params in api.calls[since:]
        if method.lower() in COUNTED_METHODS and str(params.get("chat_id")) == str(group_id)
    ]


async def test_a_refused_press_and_a_marking_tap_leave_the_group_alone(api, start_bot):
    sim = simulation(api, seed=3)
    async with start_bot() as application:
        karata = application.bot_data["karata"]
        await sim.open_table("kadi", "hand_size=8 timer=90")
        table = await karata.store.live_table(sim.group_id, 0)
        loaded = await table_state(application, table.table_id)
        await karata.publisher.settle()
        assert "(1:30)" in sim.table_message().text
        # Seconds pass: a table drawn now would say 1:25.
        clock = karata.publisher.clock
        karata.publisher.clock = lambda: clock() + 5
        players = [seat.player for seat in loaded.table.seats]
        mover = sim.users[players.index(loaded.game.to_act(loaded.state)[0])]
        other = next(user for user in sim.users if user is not mover)
        hand = sim.hand_message(mover)
        since = len(api.calls)

        # Another player replays the mover's button data from their own chat: refused.
        data = next(data for row in hand.buttons for _, data in row if (data or "").startswith("T:"))
        own = api.bot_messages(other.id)[-1]
        query = await api.press_forged(other, other.id, own.message_id, data)
        assert (await api.wait_for_answer(query)).get("text")
        await karata.publisher.settle()
        assert group_calls(api, sim.group_id, since) == []
        assert [method for method, params in api.calls[since:] if method.lower() in COUNTED_METHODS] == [], (
            "a refused press changes nothing anywhere"
        )

        # The mover taps a card that opens a choice (another of its rank, or a Jack's command).
        _ = (await karata.publisher.readers(sim.group_id, [mover.id])).of(mover.id)
        seen = seen_by(loaded.table, loaded.game, loaded.state, str(mover.id), _)
        branch = next(node for node in seen.tree.root.children if node.children and node.kind == "card")
        query = await api.press_forged(
            mover, mover.id, hand.message_id, TreeNode(table.table_id, seen.keyboard, branch.number).encode()
        )
        assert not (await api.wait_for_answer(query)).get("text")
        await karata.publisher.settle()
        private = [params.get("chat_id") for method, params in api.calls[since:] if method.lower() in COUNTED_METHODS]
        assert [str(chat) for chat in private] == [str(mover.id)], "the mark costs one edit of the mover's hand"
        assert "(1:30)" in sim.table_message().text
        assert (await table_state(application, table.table_id)).table.version == loaded.table.version
