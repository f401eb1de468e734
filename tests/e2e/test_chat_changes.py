"""When the chat changes under a table: a group upgraded to a supergroup mid-match, the bot removed
from a group, a player who blocks the bot, and a window of Telegram faults (5xx, cut calls)."""

from __future__ import annotations

import asyncio
import json

import pytest

from tests.e2e.conftest import simulation
from tests.e2e.test_records import ask
from tests.kadi.test_kadi_helpers import build_deck
from tests.tables.matches import QUICK_KADI, winning_policy

pytestmark = pytest.mark.asyncio

QUICK = " ".join(f"{name}={json.dumps(value)}" for name, value in QUICK_KADI.items())
SUPERGROUP = -1009876543210
FIVES = {0: ["5H", "5S", "5D", "5C", "9C"]}


async def open_quick_kadi(sim, karata, options=QUICK):
    """A Kadi table that Amina wins in a few moves (a fixed deal)."""
    players = [str(user.id) for user in sim.users]
    deck = build_deck(players, players[-1], hands={players[0]: FIVES[0]}, start="6H")
    karata.service.deal_override = lambda table: (players[-1], [deck])
    await sim.open_table("kadi", options)
    return await karata.store.live_table(sim.group_id, 0)


async def move(karata, table, winner):
    """The next move of whoever the table waits for (Amina plays to win); False once it is over."""
    loaded = await karata.service.load(table.table_id)
    if loaded.table.status != "playing":
        return False
    player = loaded.game.to_act(loaded.state)[0]
    action = winning_policy(loaded.game, loaded.state, player, winner)
    assert (await karata.service.act(table.table_id, player, loaded.table.version, action)).ok
    return True


def table_in(api, chat_id):
    """The bot's latest message in the chat that shows a table (its heading)."""
    for message in reversed(api.bot_messages(chat_id)):
        if "Kadi" in (message.plain or "") and message.buttons:
            return message
    return None


@pytest.mark.parametrize("learnt_from", ["the failed call", "the service message"])
async def test_a_group_upgraded_mid_match_plays_on_in_the_supergroup_with_its_records(api, start_bot, learnt_from):
    sim = simulation(api)
    amina, baraka, chausiku = sim.users
    old = sim.group_id
    async with start_bot() as application:
        karata = application.bot_data["karata"]
        table = await open_quick_kadi(sim, karata)
        assert await move(karata, table, str(amina.id))
        await karata.publisher.flush()

        api.migrate_group(old, SUPERGROUP, notify=() if learnt_from == "the failed call" else ("old", "new"))
        mark = len(api.calls)
        if learnt_from == "the failed call":
            assert await move(karata, table, str(amina.id))  # its table edit meets the upgrade
        posted = await api.wait_until(lambda: table_in(api, SUPERGROUP), timeout=10, what="the table in the supergroup")
        assert "Round 1" in posted.plain
        failed = [call for call in api.calls_to(old, mark)]
        assert len(failed) <= 1, f"the old group is called once at most: {failed}"

        # /table answers in the supergroup: the table is there now.
        await api.send_text(chausiku, SUPERGROUP, "/table")
        await api.wait_until(lambda: table_in(api, SUPERGROUP).message_id != posted.message_id, what="/table")

        while await move(karata, table, str(amina.id)):
            pass
        await karata.publisher.flush()
        assert len(api.calls_to(old, mark)) == len(failed), "nothing more goes to the old group"
        final = table_in(api, SUPERGROUP)
        assert "Match over" in final.plain and "🏆" in final.plain

        history = await ask(api, amina, SUPERGROUP, "/history")
        assert "1. Kadi" in history.plain and "🏆 Winner: Amina" in history.plain
        top = (await ask(api, baraka, SUPERGROUP, "/top")).plain
        assert top.startswith("🏆 Kadi leaderboard in this group") and "Amina" in top
        stats = (await ask(api, amina, SUPERGROUP, "/stats")).plain
        assert "Kadi: 1 matches, 1 won" in stats or "Kadi: 1 match, 1 won" in stats

        # The same upgrade told again (both service messages, a restart's retry) changes nothing.
        await karata.keeper.moved(old, SUPERGROUP)
        assert await karata.store.live_table(old, 0) is None
        assert (await karata.store.get_table(table.table_id)).chat_id == SUPERGROUP
