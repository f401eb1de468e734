"""Computer players at real tables, through the fake Bot API: a lobby filled with them plays a
whole match, a leaver is replaced and the match goes on, a practice table in the private chat,
no match of computers alone, and a computer's move still comes after a restart."""

from __future__ import annotations

import asyncio
import random
import time

import pytest

from handlers.i18n import translator
from handlers.presentation.refusals import outcome_text
from tests.e2e.conftest import STORES, simulation
from tests.e2e.helpers import sensible_player, table_state

pytestmark = pytest.mark.asyncio

FAST = {"KARATA_COMPUTER_SECONDS": 0}


def buttons(message) -> list[tuple[str, str]]:
    return [(label, data or "") for row in (message.buttons if message else []) for label, data in row]


async def play_until(application, sim, table_id, until, seconds=60.0, presses=True):
    """The people press sensible moves when it is their turn (or, `presses` False, make them
    through the table service, as a press does, to keep a whole match short); the computers
    answer by themselves."""
    sim.application = application
    sim.choose = sim.choose or sensible_player(random.Random(1))
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        loaded = await table_state(application, table_id)
        if until(loaded):
            return loaded
        people = {str(user.id) for user in sim.users}
        waiting = people & set(loaded.game.to_act(loaded.state)) if loaded.table.status == "playing" else set()
        if waiting and not presses:
            player = sorted(waiting)[0]
            action = sim.choose(player, loaded.game.legal_actions(loaded.state, player), loaded)
            await application.bot_data["karata"].service.play.act(table_id, player, loaded.table.version, action)
        elif waiting:
            await application.bot_data["karata"].publisher.settle(private_only=True)
            await sim.step()
        else:
            await asyncio.sleep(0.01)
    timers = application.bot_data["karata"].service.timers
    raise AssertionError(
        f"the table did not get there in time: version {loaded.table.version}, waiting for "
        f"{loaded.game.to_act(loaded.state)}, computer turn {loaded.table.computer_turn}, "
        f"timers {timers.armed(table_id) if timers else None}"
    )


async def open_with_computers(api, application, sim, game, options):
    await sim.open_table(game, options)
    return await application.bot_data["karata"].store.live_table(sim.group_id, 0)


async def test_a_lobby_with_two_computer_players_plays_a_whole_pitch_match(api, start_bot):
    sim = simulation(api, count=1, seed=3)
    async with start_bot(**FAST) as application:
        creator = sim.users[0]
        await api.user_starts_bot(creator)
        await api.send_text(creator, sim.group_id, "/newgame pitch level=easy")
        lobby = await api.wait_until(sim.table_message, what="the lobby")
        add = next(data for label, data in buttons(lobby) if label.startswith("🤖"))
        for _count in range(2):
            await api.wait_for_answer(await api.press(creator, sim.group_id, lobby.message_id, add))
        await application.bot_data["karata"].publisher.settle()
        lobby = sim.table_message()
        assert "🤖 Juma" in lobby.plain and "🤖 Amani" in lobby.plain
        assert any(label.startswith("➖") for label, _data in buttons(lobby))
        start = next(data for _label, data in buttons(lobby) if data.endswith(":start"))
        await api.wait_for_answer(await api.press(creator, sim.group_id, lobby.message_id, start))
        table = await application.bot_data["karata"].store.live_table(sim.group_id, 0)
        assert table.computers == ["-101", "-102"] and table.status == "playing"

        finished = lambda loaded: loaded.table.status == "finished"  # noqa: E731
        loaded = await play_until(application, sim, table.table_id, finished, presses=False)
        assert loaded.game.is_finished(loaded.state)
        moves = await application.bot_data["karata"].store.actions_of(table.table_id)
        assert {"-101", "-102", str(creator.id)} <= {player for _version, player, _action in moves}
        await application.bot_data["karata"].publisher.settle()
        assert "🤖" in sim.table_message().plain
        # Computers have no private chat: only the person got a hand message.
        assert api.bot_messages(-101) == [] and api.bot_messages(-102) == []


async def test_a_player_who_leaves_is_replaced_and_the_match_goes_on(api, start_bot):
    sim = simulation(api, count=3, seed=5)
    async with start_bot(**FAST) as application:
        table = await open_with_computers(api, application, sim, "kadi", "level=easy")
        leaver = sim.users[1]
        await api.send_text(leaver, leaver.id, "/leave")
        question = await api.wait_until(
            lambda: next((m for m in reversed(api.bot_messages(leaver.id)) if "Leave the" in (m.plain or "")), None),
            what="the question",
        )
        yes = next(data for label, data in buttons(question) if "Yes" in label)
        answer = await api.wait_for_answer(await api.press(leaver, leaver.id, question.message_id, yes))
        assert "🤖" in answer["text"]
        await application.bot_data["karata"].publisher.settle()
        assert "left the game; 🤖" in sim.table_message().plain
        before = (await table_state(application, table.table_id)).table.version

        loaded = await play_until(application, sim, table.table_id, lambda loaded: loaded.table.version >= before + 6)
        leaver_seat = next(seat for seat in loaded.table.seats if seat.plays_for == str(leaver.id))
        assert leaver_seat.is_computer and leaver_seat.name.startswith("🤖")
        moves = await application.bot_data["karata"].store.actions_of(table.table_id)
        assert any(player == str(leaver.id) and version > before for version, player, _action in moves), (
            "the computer plays on in the leaver's seat"
        )
        await application.bot_data["karata"].publisher.settle()
        closed = [m for m in api.bot_messages(leaver.id) if "You left this table" in (m.plain or "")]
        assert closed and buttons(closed[0]) == [], "the leaver's hand is closed"
        # The leaver's old buttons do nothing any more.
        stale = await application.bot_data["karata"].service.play.act(
            table.table_id, str(leaver.id), None, {"type": "draw"}
        )
        assert stale.code == "not_seated"


async def practice_table(application, chat_id):
    table = await application.bot_data["karata"].store.live_table(chat_id, 0)
    return table if table is not None and table.status == "playing" else None


async def test_a_practice_game_in_the_private_chat(api, start_bot):
    sim = simulation(api, count=1, seed=9)
    player = sim.users[0]
    async with start_bot(**FAST) as application:
        await api.user_starts_bot(player)
        await api.send_text(player, player.id, "/newgame kadi level=easy")
        table = await api.wait_until(lambda: practice_table(application, player.id), what="the practice table")
        assert len(table.computers) == 2
        before = (await table_state(application, table.table_id)).table.version
        await play_until(application, sim, table.table_id, lambda loaded: loaded.table.version >= before + 6)
        await application.bot_data["karata"].publisher.settle()
        shown = await application.bot_data["karata"].service.messages.screens(table.table_id)
        # One message for the table and one for the hand, both in the private chat.
        assert {slot for slot in shown} == {"table", f"hand:{player.id}"}
        assert {item.chat_id for item in shown.values()} == {player.id}
        table_message = api.message(player.id, shown["table"].message_id)
        assert "🤖 Juma" in table_message.plain


async def test_computer_players_never_sit_alone(api, start_bot):
    sim = simulation(api, count=1, seed=2)
    async with start_bot(**FAST) as application:
        creator = sim.users[0]
        await api.send_text(creator, sim.group_id, "/newgame kadi bots=2")
        lobby = await api.wait_until(sim.table_message, what="the lobby")
        service = application.bot_data["karata"].service
        table = await service.store.live_table(sim.group_id, 0)
        # Start refuses a table of computers only, with a sentence a player understands.
        alone = await service.store.get_table(table.table_id)
        alone.seats = [seat for seat in alone.seats if seat.is_computer]
        await service.store.save_table(alone)
        refused = await service.lobby.start(table.table_id, creator.id)
        assert refused.code == "no_human"
        assert "at least one person" in outcome_text(refused, translator("en"))
        # The opener leaving a lobby of computers closes it.
        alone.seats.insert(0, table.seats[0])
        await service.store.save_table(alone)
        leave = next(data for _label, data in buttons(lobby) if data.endswith(":leave"))
        await api.wait_for_answer(await api.press(creator, sim.group_id, lobby.message_id, leave))
        closed = await service.store.get_table(table.table_id)
        assert closed.status == "cancelled" and closed.closed_reason == "empty"


@pytest.mark.parametrize("db_path", STORES, indirect=True)
async def test_a_computer_move_pending_at_a_restart_is_made_after_it(api, start_bot, db_path):
    sim = simulation(api, count=1, seed=4)
    async with start_bot(KARATA_COMPUTER_SECONDS=30) as application:
        table = await open_with_computers(api, application, sim, "pitch", "bots=2 level=easy")
        service = application.bot_data["karata"].service
        loaded = await table_state(application, table.table_id)
        person = str(sim.users[0].id)
        if person in loaded.game.to_act(loaded.state):  # let the person bid so that a computer is next
            await service.play.act(table.table_id, person, None, loaded.game.legal_actions(loaded.state, person)[0])
        pending = (await table_state(application, table.table_id)).table
        assert pending.computer_turn
    async with start_bot(**FAST) as application:

        async def moved():
            return (await table_state(application, table.table_id)).table.version > pending.version

        await api.wait_until(moved, timeout=60, what="the computer's move after the restart")
