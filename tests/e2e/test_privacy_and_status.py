"""A player's /forget, and the owner's /status, as they see them in Telegram."""

from __future__ import annotations

import pytest

from tables.transfer import TABLES
from tests.e2e.conftest import STORES, simulation
from tests.e2e.helpers import play_a_match_amina_wins
from tests.e2e.test_records import ask

pytestmark = pytest.mark.asyncio


async def shows(api, chat_id: int, message_id: int, start: str) -> None:
    await api.wait_until(lambda: api.message(chat_id, message_id).plain.startswith(start), what=start)


@pytest.mark.parametrize("db_path", STORES, indirect=True)
async def test_forget_removes_a_name_and_records_and_leaves_an_anonymous_seat(api, start_bot, db_path):
    sim = simulation(api)
    amina, baraka, _chausiku = sim.users
    async with start_bot() as application:
        await play_a_match_amina_wins(application, sim)
        assert "Amina" in (await ask(api, baraka, sim.group_id, "/top")).plain

        said = await ask(api, amina, sim.group_id, "/forget")
        assert said.plain == "Send /forget in our private chat."
        asked = await ask(api, amina, amina.id, "/forget")
        assert "This cannot be undone." in asked.plain
        query = await api.press_text(amina, amina.id, asked.message_id, "Keep my records")
        await api.wait_for_answer(query)
        await shows(api, amina.id, asked.message_id, "Nothing was deleted.")
        assert "Amina" in (await ask(api, baraka, sim.group_id, "/top")).plain

        asked = await ask(api, amina, amina.id, "/forget")
        query = await api.press_text(amina, amina.id, asked.message_id, "Forget me")
        await api.wait_for_answer(query)
        await shows(api, amina.id, asked.message_id, "Done: I forgot your name and records.")

        # Nothing in the database names her or keeps her id (before she writes again).
        database = application.bot_data["karata"].store.database
        dump = "\n".join([repr(tuple(row)) for table in TABLES for row in await database.all(f"SELECT * FROM {table}")])
        assert "Amina" not in dump
        assert f'"{amina.id}"' not in dump
        for table, column in (("users", "user_id"), ("results", "user_id"), ("ratings", "user_id"),
                              ("screens", "chat_id"), ("tables", "creator_id")):  # fmt: skip
            assert not await database.all(f"SELECT 1 FROM {table} WHERE {column} = ?", (amina.id,)), table

        board = (await ask(api, baraka, sim.group_id, "/top")).plain
        assert "Amina" not in board and "Baraka" in board and "Chausiku" in board
        history = (await ask(api, baraka, sim.group_id, "/history")).plain
        assert "1. Kadi" in history and "Amina" not in history
        mine = (await ask(api, amina, amina.id, "/stats")).plain
        assert "has not finished a match yet" in mine
        theirs = (await ask(api, baraka, baraka.id, "/stats")).plain
        assert "Kadi" in theirs


async def test_forget_waits_while_the_person_is_at_a_table(api, start_bot):
    sim = simulation(api)
    amina = sim.users[0]
    async with start_bot():
        await sim.open_table("kadi")
        said = await ask(api, amina, amina.id, "/forget")
        assert said.plain == "You are at a table now. Finish or leave your game, then send /forget again."


async def test_status_answers_the_owner_in_private_and_nobody_else(api, start_bot):
    sim = simulation(api)
    amina, baraka, _chausiku = sim.users
    async with start_bot(KARATA_OWNER_IDS=str(amina.id)):
        await sim.open_table("kadi")
        status = (await ask(api, amina, amina.id, "/status")).plain
        assert status.startswith("Karata ") and "running for 0 h 0 min" in status
        assert "Presses in the last hour: 1" in status  # the lobby's Start
        assert "Errors in the last hour: 0" in status
        assert "Kadi: 1 playing, 0 in the lobby" in status
        refused = "/status is for the bot's owner, in our private chat."
        assert (await ask(api, baraka, baraka.id, "/status")).plain == refused
        assert (await ask(api, amina, sim.group_id, "/status")).plain == refused
