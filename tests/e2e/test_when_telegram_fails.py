"""When Telegram fails under a table: a press is answered even when its first answers fail, never
with "went wrong" for a move that was stored, and an update delivered twice does nothing twice."""

from __future__ import annotations

import pytest

from handlers.chat import telegram_io
from tests.e2e.conftest import simulation
from tests.e2e.helpers import table_state
from tests.e2e.test_kadi_table import open_kadi

pytestmark = pytest.mark.asyncio

WENT_WRONG = "Something went wrong"


@pytest.fixture
def quick_answers(monkeypatch):
    """A hung answer is given up after 0.3 s (4 s in production), and tried again at once."""
    monkeypatch.setattr(telegram_io, "ANSWER_TIMEOUT_SECONDS", 0.3)
    monkeypatch.setattr(telegram_io, "ANSWER_FIRST_RETRY_SECONDS", 0.1)


def answers_sent(api, query):
    return [
        params
        for method, params in api.calls
        if method.lower() == "answercallbackquery" and str(params.get("callback_query_id")) == query
    ]


async def seven_of_hearts(api, application, sim):
    """A Kadi table where Amina may play 7♥ on 6♥: the table, and how to press it."""
    amina = sim.users[0]
    table = await open_kadi(api, application, sim, hands=[["7H", "KS"]], start="6H")
    await application.bot_data["karata"].publisher.settle()
    hand = sim.hand_message(amina)
    data = next(data for row in hand.buttons for label, data in row if label == "7♥️")
    return table, lambda: api.press(amina, amina.id, hand.message_id, data)


async def moved_once(application, table):
    loaded = await table_state(application, table.table_id)
    assert loaded.table.version == table.version + 1, "the move was stored, once"
    assert "7H" not in loaded.game.replay_hands(loaded.state)[str(loaded.table.players[0])]


@pytest.mark.parametrize("failure", ["two 502s", "an outage"])
async def test_a_press_whose_answer_fails_is_answered_when_telegram_is_back(api, start_bot, quick_answers, failure):
    sim = simulation(api)
    async with start_bot() as application:
        table, press = await seven_of_hearts(api, application, sim)
        if failure == "two 502s":
            api.fail("answerCallbackQuery", 502, times=2)
        else:
            api.fail("answerCallbackQuery", 502, seconds=1.0)
        query = await press()
        answer = await api.wait_for_answer(query, timeout=60)
        assert not answer.get("text"), "answered as the move it made"
        sent = answers_sent(api, query)
        assert len(sent) >= 3 and not any(params.get("text") for params in sent), "tried again, never a toast"
        failed = [error for error in api.errors if error[0].lower() == "answercallbackquery"]
        assert failed and all(code == 502 for _, _, code, _ in failed)
        await moved_once(application, table)


async def test_a_hung_answer_never_says_went_wrong_about_a_stored_move(api, start_bot, quick_answers):
    sim = simulation(api)
    async with start_bot() as application:
        table, press = await seven_of_hearts(api, application, sim)
        api.hang("answerCallbackQuery", 1.0)  # longer than the bot waits for it
        query = await press()
        answer = await api.wait_for_answer(query, timeout=60)
        await api.settle(quiet=1.2)  # the hung call ends too
        assert not answer.get("text")
        assert not any(WENT_WRONG in (params.get("text") or "") for params in answers_sent(api, query))
        assert len(answers_sent(api, query)) >= 2, "the hung answer was tried again"
        await moved_once(application, table)


async def test_a_duplicated_newgame_and_start_send_nothing_new(api, start_bot):
    sim = simulation(api, count=2)
    amina = sim.users[0]
    async with start_bot() as application:
        sent = await api.send_text(amina, sim.group_id, "/newgame kadi")
        api.redeliver_message(sim.group_id, sent["message_id"])  # the same update, twice in one batch
        await api.settle(quiet=0.1)
        await application.bot_data["karata"].publisher.flush()
        group = [message.plain for message in api.bot_messages(sim.group_id)]
        assert len(group) == 1 and "Kadi" in group[0], group
        lobby = sim.table_message()
        join = next(data for row in lobby.buttons for _, data in row if (data or "").startswith("https://"))
        await api.open_link(sim.users[1], join)
        await api.settle(quiet=0.1)
        start = next(data for row in lobby.buttons for _, data in row if (data or "").endswith(":start"))
        query = await api.press(amina, sim.group_id, lobby.message_id, start)
        api.redeliver(query)
        assert not (await api.wait_for_answer(query)).get("text")
        await api.settle(quiet=0.1)
        await application.bot_data["karata"].publisher.flush()
        assert [params.get("text") for params in answers_sent(api, query)] == [None], "one answer, no toast"
        table = await application.bot_data["karata"].store.live_table(sim.group_id, 0)
        assert table.status == "playing"
        texts = [message.plain for message in api.bot_messages(sim.group_id)]
        assert not any("already" in (text or "") for text in texts), texts


async def test_newgame_and_start_delivered_again_after_a_restart_do_nothing(api, start_bot):
    sim = simulation(api, count=2)
    amina, baraka = sim.users
    async with start_bot() as application:
        sent = await api.send_text(amina, sim.group_id, "/newgame kadi")
        lobby = await api.wait_until(sim.table_message, what="the lobby")
        join = next(data for row in lobby.buttons for _, data in row if (data or "").startswith("https://"))
        await api.open_link(baraka, join)
        await api.settle(quiet=0.1)
        start = next(data for row in lobby.buttons for _, data in row if (data or "").endswith(":start"))
        query = await api.press(amina, sim.group_id, lobby.message_id, start)
        await api.wait_for_answer(query)
        await application.bot_data["karata"].publisher.settle()
    messages_before = len(api.bot_messages(sim.group_id))
    # The bot died before telling Telegram it had these updates: both come again.
    api.redeliver_message(sim.group_id, sent["message_id"])
    api.queries[query].answer = None
    api.redeliver(query)
    async with start_bot() as application:
        assert not (await api.wait_for_answer(query)).get("text"), "answered, silently"
        await api.settle(quiet=0.1)
        await application.bot_data["karata"].publisher.flush()
        texts = [message.plain for message in api.bot_messages(sim.group_id)[messages_before:]]
        assert not any("already" in (text or "") for text in texts), texts
        assert (await application.bot_data["karata"].store.live_table(sim.group_id, 0)).status == "playing"
