"""A common play of several cards is one press (⏩): it costs what a play of one card costs, the
mover's hand, the next player's hand and the group's table, one edit each."""

from __future__ import annotations

import pytest

from engine.lopti.rules import DECK
from fakeapi.flood import COUNTED_METHODS
from tests.e2e.conftest import simulation
from tests.e2e.helpers import table_state
from tests.e2e.test_kadi_table import press

pytestmark = pytest.mark.asyncio


def lopti_deck(first_hand: list[str]) -> list[str]:
    """A deck that deals `first_hand` to the first player, who deals and starts round 1 (three
    players: the hands are dealt last, left of the dealer first, so hers are cards 20, 23, 26)."""
    deck = [card for card in DECK if card not in first_hand]
    for index, card in zip((20, 23, 26), first_hand):
        deck.insert(index, card)
    return deck


async def test_a_lopti_pair_plays_with_one_press_for_three_edits(api, start_bot):
    sim = simulation(api, count=3, seed=5)
    amina, baraka, _chausiku = sim.users
    async with start_bot() as application:
        karata = application.bot_data["karata"]
        karata.service.lobby.deal_override = lambda table: (str(amina.id), [lopti_deck(["5H", "5S", "9C"])])
        sim.application = application
        await sim.open_table("lopti")
        table = await karata.store.live_table(sim.group_id, 0)
        for user in sim.users:
            outcome = await karata.service.play.act_now(table.table_id, str(user.id), {"type": "ready"})
            assert outcome.ok, outcome
        await karata.publisher.settle()
        labels = [label for row in sim.hand_message(amina).buttons for label, _data in row]
        assert "⏩ 5♠ 5♥️" in labels and "5♠" in labels and "5♥️" in labels, labels

        since = len(api.calls)
        await press(api, sim, amina, "⏩ 5♠ 5♥️")
        await karata.publisher.settle()
        calls = [
            (method, str(params.get("chat_id")))
            for method, params in api.calls[since:]
            if method.lower() in COUNTED_METHODS
        ]
        assert sorted(calls) == sorted(
            [
                ("editMessageText", str(amina.id)),
                ("editMessageText", str(baraka.id)),
                ("editMessageText", str(sim.group_id)),
            ]
        ), calls
        loaded = await table_state(application, table.table_id)
        assert sorted(loaded.state.pile) == ["5H", "5S"], "both fives are on the pile"
        assert "Amina played 5♠ 5♥️." in sim.table_message().plain
