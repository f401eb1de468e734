"""When the chat changes under a table: a group upgraded to a supergroup mid-match, the bot removed
from a group, a player who blocks the bot, and a window of Telegram faults (5xx, cut calls)."""

from __future__ import annotations

import asyncio
import json

import pytest

from bot.demo import Simulation
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
    karata.service.lobby.deal_override = lambda table: (players[-1], [deck])
    await sim.open_table("kadi", options)
    return await karata.store.live_table(sim.group_id, 0)


async def move(karata, table, winner):
    """The next move of whoever the table waits for (Amina plays to win); False once it is over."""
    loaded = await karata.service.load(table.table_id)
    if loaded.table.status != "playing":
        return False
    player = loaded.game.to_act(loaded.state)[0]
    action = winning_policy(loaded.game, loaded.state, player, winner)
    assert (await karata.service.play.act(table.table_id, player, loaded.table.version, action)).ok
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
        posted = await api.wait_until(lambda: table_in(api, SUPERGROUP), timeout=60, what="the table in the supergroup")
        assert "Round 1" in posted.plain
        failed = api.calls_to(old, mark)
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
        top = (await ask(api, baraka, SUPERGROUP, "/top all")).plain
        assert top.startswith("🏆 Kadi leaderboard in this group") and "Amina" in top
        assert "1. Amina: 2 points (1 win, 1 match)" in (await ask(api, baraka, SUPERGROUP, "/top")).plain
        stats = (await ask(api, amina, SUPERGROUP, "/stats")).plain
        assert "Kadi: 1 matches, 1 won" in stats or "Kadi: 1 match, 1 won" in stats

        # The same upgrade told again (both service messages, a restart's retry) changes nothing.
        await karata.keeper.moved(old, SUPERGROUP)
        assert await karata.service.migration.migrate_chat(old, SUPERGROUP) == [], "nothing left to move"
        assert await karata.store.live_table(old, 0) is None
        assert not await karata.store.records.history(old)
        assert (await karata.store.get_table(table.table_id)).chat_id == SUPERGROUP


@pytest.mark.parametrize("told", [True, False], ids=["told by my_chat_member", "learnt from a 403"])
async def test_a_removed_bot_stops_calling_the_group_and_the_players_get_the_standings(api, start_bot, told):
    sim = simulation(api)
    amina = sim.users[0]
    # A short turn: an orphaned table would go on timing out and trying its group.
    async with start_bot(KARATA_TURN_SECONDS=1, KARATA_WARN_SECONDS=0) as application:
        karata = application.bot_data["karata"]
        table = await open_quick_kadi(sim, karata)
        api.remove_bot(sim.group_id, notify=told)
        mark = len(api.calls)

        async def ended():
            return (await karata.store.get_table(table.table_id)).status == "finished"

        await api.wait_until(ended, timeout=60, what="the table to end")
        ended_at = len(api.calls_to(sim.group_id, mark))
        assert ended_at <= (0 if told else 1), api.calls_to(sim.group_id, mark)
        await asyncio.sleep(2.5)  # two turns' time: nothing times out, nothing tries the group
        await karata.publisher.flush()
        assert len(api.calls_to(sim.group_id, mark)) == ended_at
        final = await karata.store.get_table(table.table_id)
        assert final.closed_reason == "chat_lost" and final.deadline is None
        hand = api.last_message(amina.id)
        assert "I can no longer write in this table's group" in hand.plain and "Standings:" in hand.plain
        assert not hand.buttons

        # Added back: the group is written to again (a new table opens there).
        api.add_bot_back(sim.group_id)
        await api.settle(quiet=0.05)
        await sim.open_table("kadi", QUICK)
        assert await karata.store.live_table(sim.group_id, 0) is not None


async def test_a_player_who_blocks_the_bot_is_noticed_at_once_and_caught_up_on_return(api, start_bot):
    sim = simulation(api)
    amina, baraka, _ = sim.users
    async with start_bot() as application:
        karata = application.bot_data["karata"]
        table = await open_quick_kadi(sim, karata)
        assert "my_chat_member" in api.allowed_updates, "the bot asks for it"
        api.block(baraka)

        async def unreachable():
            return baraka.id in (await karata.store.get_table(table.table_id)).unreachable

        await api.wait_until(unreachable, what="Baraka marked unreachable")
        await karata.publisher.flush()
        assert not [error for error in api.errors if error[1].get("chat_id") == baraka.id], "no failed send needed"
        notice = api.last_message(sim.group_id)
        assert "Baraka, I cannot send you your cards" in notice.plain
        assert (await karata.store.get_user(baraka.id)).dm_ok is False

        # Moves go on meanwhile; Baraka's chat is not called.
        mark = len(api.calls)
        assert await move(karata, table, str(amina.id))
        await karata.publisher.flush()
        assert not api.calls_to(baraka.id, mark)

        before = max(message.message_id for message in api.messages(baraka.id))
        await api.user_starts_bot(baraka)  # unblocks: my_chat_member, then /start
        await api.wait_until(
            lambda: (sim.hand_message(baraka) or api.messages(baraka.id)[0]).message_id > before,
            what="Baraka's hand posted again",
        )
        await api.wait_until(
            lambda: not any("cannot send you" in (m.plain or "") for m in api.bot_messages(sim.group_id)),
            what="the notice gone",
        )
        assert baraka.id not in (await karata.store.get_table(table.table_id)).unreachable


async def converged(karata):
    """Every table's messages show its latest committed state: nothing behind, nothing queued, and
    each message as its render says (read back from the fake)."""
    if await karata.store.tables_behind() or karata.publisher.busy() or karata.publisher.retrying():
        return False
    return True


def shows_latest(api, karata, loaded, readers, shown):
    from handlers.delivery.screens import POST_ONCE, table_screens

    for slot, screen in table_screens(loaded, readers, karata.publisher.clock()).items():
        current = shown.get(slot)
        if screen.kind == POST_ONCE:
            continue
        assert current is not None and current.digest == screen.digest, slot
        message = api.message(current.chat_id, current.message_id)
        assert message is not None and message.text == screen.text, slot


@pytest.mark.parametrize("kinds", [("5xx", "cut")], ids=["5xx and cut calls"])
async def test_a_fault_window_loses_no_acknowledged_move_and_every_table_converges(api, start_bot, kinds):
    groups = [
        Simulation.create(api, 3, 7, group_id=-1001000000001 - index, first_user=2001 + 10 * index)
        for index in range(3)
    ]
    async with start_bot() as application:
        karata = application.bot_data["karata"]
        karata.publisher.retry_seconds, karata.publisher.retry_cap_seconds = 0.1, 1.0
        tables = [await open_quick_kadi(sim, karata, "hand_size=5 points_limit=500") for sim in groups]
        mark = len(api.calls)
        api.inject_faults(0.4, kinds=kinds, seed=3)
        acknowledged = {table.table_id: 0 for table in tables}
        for _ in range(8):
            for _sim, table in zip(groups, tables):
                if await move(karata, table, "nobody"):
                    acknowledged[table.table_id] += 1
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.5)
        api.stop_faults()
        assert sum(api.faults.values()) > 5, api.faults
        during = len(api.calls) - mark

        async def settled():
            return await converged(karata)

        await api.wait_until(settled, timeout=20, what="every table to converge")
        for table in tables:
            loaded = await karata.service.load(table.table_id)
            actions = await karata.store.actions_of(table.table_id)
            assert len([a for a in actions if a[0] > 1]) >= acknowledged[table.table_id] > 0, "no move lost"
            readers = await karata.publisher.readers(
                loaded.table.chat_id, [seat.user_id for seat in loaded.table.seats]
            )
            shows_latest(api, karata, loaded, readers, await karata.store.screens_of(table.table_id))
        assert during < 400, f"{during} calls in the fault window: no tight loop"


@pytest.mark.long
async def test_hung_calls_time_out_and_the_table_catches_up(api, start_bot):
    sim = simulation(api)
    async with start_bot() as application:
        karata = application.bot_data["karata"]
        karata.publisher.retry_seconds, karata.publisher.retry_cap_seconds = 0.1, 1.0
        table = await open_quick_kadi(sim, karata, "hand_size=5 points_limit=500")
        # Every edit hangs past the client's read timeout (5 s) while two moves are made.
        api.inject_faults(1.0, kinds=("hang",), hang_seconds=5.5, methods={"editMessageText"})
        assert await move(karata, table, "nobody") and await move(karata, table, "nobody")
        await api.wait_until(lambda: api.faults["hang"] >= 1, what="a hung call")
        api.stop_faults()

        async def settled():
            return await converged(karata)

        await api.wait_until(settled, timeout=20, what="the table to converge")
        loaded = await karata.service.load(table.table_id)
        readers = await karata.publisher.readers(loaded.table.chat_id, [seat.user_id for seat in loaded.table.seats])
        shows_latest(api, karata, loaded, readers, await karata.store.screens_of(table.table_id))
        assert api.faults["hang"] <= 4, "each chat's hung call holds its queue; no pile of retries"


async def test_a_group_that_keeps_failing_is_retried_with_backoff_not_in_a_loop(api, start_bot):
    sim = simulation(api)
    async with start_bot() as application:
        karata = application.bot_data["karata"]
        table = await open_quick_kadi(sim, karata, "hand_size=5 points_limit=500")
        karata.publisher.retry_seconds = 0.25
        api.inject_faults(1.0, kinds=("5xx",), methods={"editMessageText", "sendMessage"})
        mark = len(api.calls)
        assert await move(karata, table, "nobody")
        await asyncio.sleep(2)
        # Passes at 0, then after 0.125-0.25 s, 0.25-0.5 s more, 0.5-1 s more, 1-2 s more: at
        # most five in two seconds, and one call to the group each.
        tries = len(api.calls_to(sim.group_id, mark))
        assert 3 <= tries <= 5, tries
        assert karata.publisher.retrying() == 1, "one pending retry for the table"
        api.stop_faults()
        await api.wait_until(lambda: converged(karata), timeout=70, what="the table to catch up")
