"""The lobby seats as many players as the table's options can deal to, says so, and a closed
lobby's buttons say it was closed."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import simulation

pytestmark = pytest.mark.asyncio


async def toast(api, query):
    return (await api.wait_for_answer(query)).get("text") or ""


async def open_lobby(api, sim, options=""):
    await api.send_text(sim.users[0], sim.group_id, f"/newgame kadi {options}".strip())
    lobby = await api.wait_until(sim.table_message, what="lobby")
    join = next(data for row in lobby.buttons for _, data in row if data.startswith("https://"))
    answers = []
    for user in sim.users[1:]:
        before = len(api.bot_messages(user.id))
        await api.open_link(user, join)
        await api.wait_until(lambda: len(api.bot_messages(user.id)) > before, what="the join's answer")
        answers.append(api.bot_messages(user.id)[-1].plain)
    await api.settle(quiet=0.05)
    return lobby, answers


def button(lobby, suffix):
    return next(data for row in lobby.buttons for _, data in row if (data or "").endswith(suffix))


async def test_kadi_with_hands_of_seven_seats_six_and_says_so(api, start_bot):
    sim = simulation(api, count=7)
    async with start_bot() as application:
        lobby, answers = await open_lobby(api, sim)
        assert "2-6 players" in api.message(sim.group_id, lobby.message_id).plain
        assert "The table is full (6 players)" in answers[-1], "the 7th join is refused"
        assert all("You joined" in answer for answer in answers[:-1])
        assert (
            await toast(api, await api.press(sim.users[0], sim.group_id, lobby.message_id, button(lobby, ":start")))
            == ""
        )
        table = await application.bot_data["karata"].store.live_table(sim.group_id, 0)
        assert table.status == "playing" and len(table.seats) == 6


async def test_kadi_with_smaller_hands_seats_and_deals_to_seven(api, start_bot):
    sim = simulation(api, count=7)
    async with start_bot() as application:
        lobby, answers = await open_lobby(api, sim, "hand_size=6")
        assert "2-7 players" in api.message(sim.group_id, lobby.message_id).plain
        assert all("You joined" in answer for answer in answers)
        assert (
            await toast(api, await api.press(sim.users[0], sim.group_id, lobby.message_id, button(lobby, ":start")))
            == ""
        )
        table = await application.bot_data["karata"].store.live_table(sim.group_id, 0)
        assert table.status == "playing" and len(table.seats) == 7


async def test_pitch_in_partnerships_says_four_players(api, start_bot):
    sim = simulation(api, count=3)
    async with start_bot():
        await api.send_text(sim.users[0], sim.group_id, "/newgame pitch partnerships=true")
        lobby = await api.wait_until(sim.table_message, what="lobby")
        assert "open: 4 players" in lobby.plain
        text = await toast(api, await api.press(sim.users[0], sim.group_id, lobby.message_id, button(lobby, ":start")))
        assert "needs 4 players" in text


async def test_a_cancelled_lobby_says_it_was_closed(api, start_bot):
    sim = simulation(api, count=2)
    async with start_bot():
        lobby, _answers = await open_lobby(api, sim)
        await toast(api, await api.press(sim.users[0], sim.group_id, lobby.message_id, button(lobby, ":cancel")))
        text = await toast(api, await api.press(sim.users[0], sim.group_id, lobby.message_id, button(lobby, ":start")))
        assert "closed" in text and "cancelled" in text
        assert "already started" not in text
