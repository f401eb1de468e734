"""After the matches, from a phone: /history's replay file plays the match back exactly, /top and
/stats answer in the group and in private, and a player who opts out is listed as "a player"."""

from __future__ import annotations

import json

import pytest

from engine.core.serialize import state_from_json
from tables.models import Seat
from tests.e2e.conftest import simulation
from tests.e2e.helpers import play_a_match_amina_wins
from tests.replay_cli import run_replay_cli
from tests.tables.matches import play_match

pytestmark = pytest.mark.asyncio


async def ask(api, user, chat_id, text, reply_to=None):
    """Send a command and wait for the bot's answer (a reply in a group; the next message in private)."""
    sent = await api.send_text(user, chat_id, text, reply_to_message_id=reply_to)

    def reply():
        if chat_id == user.id:
            return next((m for m in api.bot_messages(chat_id) if m.message_id > sent["message_id"]), None)
        return next((m for m in api.bot_messages(chat_id) if m.reply_to_message_id == sent["message_id"]), None)

    return await api.wait_until(reply, timeout=60, what=f"the reply to {text}")


async def test_history_sends_a_replay_file_that_plays_the_match_back_exactly(api, start_bot, tmp_path):
    sim = simulation(api)
    amina, baraka, _chausiku = sim.users
    players = [str(user.id) for user in sim.users]
    async with start_bot() as application:
        loaded = await play_a_match_amina_wins(application, sim)
        table = loaded.table

        history = await ask(api, amina, sim.group_id, "/history")
        assert "The last matches in this group" in history.plain
        assert "1. Kadi" in history.plain and "🏆 Winner: Amina" in history.plain
        query = await api.press_text(baraka, sim.group_id, history.message_id, "📄 1")
        assert "private chat" in (await api.wait_for_answer(query))["text"]
        [document] = await api.wait_until(lambda: api.documents(baraka.id), what="the replay file")
        assert document.document.file_name == f"karata-kadi-{table.table_id}.json"
        assert document.caption.startswith("Replay of Kadi, ") and "Amina, Baraka, and Chausiku" in document.caption

    path = tmp_path / "match.json"
    path.write_bytes(document.document.content)
    played = run_replay_cli(path)
    assert played.returncode == 0, played.stderr
    outcome = json.loads(played.stdout)
    final = state_from_json(loaded.game, loaded.table.state)
    assert outcome["finished"] and outcome["winners"] == [players[0]]
    assert outcome["scores"] == loaded.game.scores(final)
    assert outcome["hands"] == loaded.game.replay_hands(final), "hands and all"


async def test_a_replay_to_a_private_chat_that_is_not_found_asks_to_open_it_instead_of_failing_again(api, start_bot):
    """Telegram's 400 "chat not found" for the presser's private chat lasts (it is no passing
    fault): the player is marked unreachable, and their next press is told to open the chat."""
    sim = simulation(api)
    amina, baraka, _chausiku = sim.users
    async with start_bot() as application:
        await play_a_match_amina_wins(application, sim)
        history = await ask(api, amina, sim.group_id, "/history")
        api.fail("sendDocument", code=400, description="Bad Request: chat not found")
        query = await api.press_text(baraka, sim.group_id, history.message_id, "📄 1")
        assert "private chat" in (await api.wait_for_answer(query))["text"]
        store = application.bot_data["karata"].store
        await api.wait_until(lambda: _dm_closed(store, baraka.id), what="Baraka marked unreachable")

        again = await api.press_text(baraka, sim.group_id, history.message_id, "📄 1")
        assert "press Start" in (await api.wait_for_answer(again))["text"]
        assert sends_of_documents(api) == 1, "no second try at a chat that is not there"
        assert api.documents(baraka.id) == []


def sends_of_documents(api) -> int:
    return sum(1 for method, _ in api.calls if method == "sendDocument")


async def _dm_closed(store, user_id: int) -> bool:
    known = await store.get_user(user_id)
    return known is not None and not known.dm_ok


async def test_top_and_stats_and_a_player_who_opts_out(api, start_bot):
    sim = simulation(api)
    amina, baraka, chausiku = sim.users
    seats = [Seat(user.id, user.first_name) for user in sim.users]
    async with start_bot() as application:
        karata = application.bot_data["karata"]
        await play_match(karata.service, sim.group_id, seats, seats[0])
        await play_match(karata.service, sim.group_id, seats[:2], seats[0])
        await play_match(karata.service, sim.group_id, seats[1:], seats[1])
        await karata.publisher.flush()

        top = (await ask(api, chausiku, sim.group_id, "/top all")).plain
        assert top.startswith("🏆 Kadi leaderboard in this group")
        assert top.index("Amina") < top.index("Baraka") < top.index("Chausiku"), "best first"
        assert "Provisional (fewer than 5 matches):" in top and "Amina: 1" in top and "(2 matches)" in top

        mine = (await ask(api, amina, sim.group_id, "/stats")).plain
        assert mine.startswith("📊 Amina in this group")
        assert "Kadi: 2 matches, 2 won (100%)" in mine and "2 wins in a row" in mine and "(provisional)" in mine

        said = await api.send_text(baraka, sim.group_id, "Anyone for another game?")
        theirs = (await ask(api, amina, sim.group_id, "/stats", reply_to=said["message_id"])).plain
        assert theirs.startswith("📊 Baraka in this group") and "Kadi: 3 matches, 1 won (33%)" in theirs

        await api.user_starts_bot(baraka)
        await api.settle(quiet=0.05)
        assert "“a player”" in (await ask(api, baraka, baraka.id, "/stats off")).plain
        top = (await ask(api, chausiku, sim.group_id, "/top kadi")).plain
        assert "Baraka" not in top and "a player: " in top
        hidden = (await ask(api, amina, sim.group_id, "/stats", reply_to=said["message_id"])).plain
        assert hidden == "Baraka keeps their record private."

        everywhere = (await ask(api, baraka, baraka.id, "/stats")).plain
        assert everywhere.startswith("📊 Baraka in all groups"), "in private: every group together"
        assert (await ask(api, baraka, baraka.id, "/stats on")).plain == "Leaderboards show your name again."
        assert "Baraka" in (await ask(api, chausiku, sim.group_id, "/top")).plain
        unknown = (await ask(api, chausiku, sim.group_id, "/top poker")).plain
        assert "Euchre for three (euchre3)" in unknown and "Three Thirteen (three_thirteen)" in unknown, unknown
