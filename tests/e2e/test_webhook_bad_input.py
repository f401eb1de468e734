"""The webhook under bad input: a forged or garbled secret, and with the right secret a body that
is no update, are answered 4xx with a short body and at most one log line (never a traceback),
and nothing reaches the bot's handlers; every update Telegram really sends still does."""

from __future__ import annotations

import asyncio
import json
import logging

import pytest
from hypothesis import strategies as st
from telegram import Bot

from bot import web as web_module
from bot.demo import DEMO_TOKEN
from bot.services import services_of
from bot.update_json import read_update
from tests.e2e.conftest import simulation
from tests.e2e.raw_http import assert_refused_quietly, fuzz, request
from tests.e2e.test_modes_and_languages import free_port
from tests.e2e.test_rule_votes import open_lopti, propose_ten_on_seven, vote

pytestmark = pytest.mark.asyncio

SECRET = "s3cret-token"
WEBHOOK = {
    "KARATA_MODE": "webhook",
    "KARATA_WEBHOOK_URL": "https://karata.example/hook",
    "KARATA_HTTP_LISTEN": "127.0.0.1",
    "KARATA_WEBHOOK_SECRET": SECRET,
}
USER = {"id": 7, "is_bot": False, "first_name": "Amina"}
MESSAGE = {
    "message_id": 5,
    "date": 0,
    "chat": {"id": -100, "type": "supergroup", "title": "Karata"},
    "from": USER,
    "text": "/newgame kadi",
    "entities": [{"type": "bot_command", "offset": 0, "length": 8}],
}
KINDS = ["message", "edited_message", "callback_query", "my_chat_member", "chat_member", "poll", "poll_answer"]

# With the right secret: bodies that are no update (the cases, and their neighbours).
NOT_UPDATES = {
    "message is a number": {"update_id": 1, "message": 5},
    "message is a string": {"update_id": 1, "message": "hello"},
    "callback_query is a number": {"update_id": 1, "callback_query": 5},
    "callback_query is a string": {"update_id": 1, "callback_query": "press"},
    "edited_message is true": {"update_id": 1, "edited_message": True},
    "my_chat_member is empty": {"update_id": 1, "my_chat_member": {}},
    "message without its chat": {"update_id": 1, "message": {"message_id": 5, "date": 0}},
    "text is a number": {"update_id": 1, "message": {**MESSAGE, "text": 5}},
    "a user id is a string": {"update_id": 1, "message": {**MESSAGE, "from": {**USER, "id": "7"}}},
    "a date past the calendar": {"update_id": 1, "message": {**MESSAGE, "date": 10**20}},
    "update_id is a string": {"update_id": "1"},
    "a list": [1, 2],
    "nested 5,000 lists deep": "[" * 5000 + "]" * 5000,
    "nested 5,000 objects deep": '{"a":' * 5000 + "1" + "}" * 5000,
    "not JSON": "{not json",
    "not UTF-8": b"\xff\xfe{",
}


def body_of(value) -> bytes:
    if isinstance(value, bytes):
        return value
    return (value if isinstance(value, str) else json.dumps(value)).encode()


async def post(port, body, secret=SECRET):
    headers = {"Content-Type": "application/json"}
    if secret is not None:
        headers["X-Telegram-Bot-Api-Secret-Token"] = secret
    return await request(port, "POST", "/hook", headers, body)


def webhook_bot(start_bot):
    return start_bot(**WEBHOOK, KARATA_HTTP_PORT=free_port())


async def test_a_garbled_secret_is_refused_like_a_wrong_one(api, start_bot, caplog):
    caplog.set_level(logging.INFO)
    async with webhook_bot(start_bot) as application:
        port = services_of(application).web.port
        for secret in ["sécret-tökén", "s3cret-token\u00a0", "🃏" * 100, "", None]:
            caplog.clear()
            answer = await post(port, json.dumps({"update_id": 1, "message": MESSAGE}).encode(), secret)
            assert answer.status == 403, secret
            assert_refused_quietly(answer, caplog.records, secret)
        assert application.update_queue.empty()


async def test_a_body_sent_slowly_is_refused_after_a_bounded_time(api, start_bot, monkeypatch):
    monkeypatch.setattr(web_module, "BODY_SECONDS", 0.3)
    async with webhook_bot(start_bot) as application:
        head = (
            f"POST /hook HTTP/1.1\r\nHost: x\r\nX-Telegram-Bot-Api-Secret-Token: {SECRET}\r\n"
            "Content-Length: 100\r\n\r\n{"
        )
        reader, writer = await asyncio.open_connection("127.0.0.1", services_of(application).web.port)
        writer.write(head.encode())
        # The answer comes while the connection is still open (a bound against a hung test).
        status_line = await asyncio.wait_for(reader.readline(), 10)
        assert status_line.startswith(b"HTTP/1.1 408"), status_line
        # The rest of the body, late, is read and dropped, and the connection closed.
        writer.write(b" " * 99)
        assert (await asyncio.wait_for(reader.read(), 15)).endswith(b"the body came too slowly")
        writer.close()
        await api.settle(quiet=0.05)
        assert application.update_queue.empty()


async def test_with_the_right_secret_a_body_that_is_no_update_is_refused(api, start_bot, caplog):
    caplog.set_level(logging.INFO)
    async with webhook_bot(start_bot) as application:
        port = services_of(application).web.port
        for case, value in NOT_UPDATES.items():
            caplog.clear()
            answer = await post(port, body_of(value))
            assert answer.status == 400, case
            assert_refused_quietly(answer, caplog.records, case)
        assert application.update_queue.empty()
        # The same server still takes a real update.
        assert (await post(port, json.dumps({"update_id": 2, "message": MESSAGE}).encode())).status == 200


def junk():
    """JSON of any shape, and the wrong types a field could hold."""
    scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20)
    return st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
        max_leaves=12,
    )


def broken_message():
    """A real message with one of its fields replaced by junk, or taken away."""
    fields = sorted(MESSAGE)
    replaced = st.tuples(st.sampled_from(fields), junk()).map(lambda pair: {**MESSAGE, pair[0]: pair[1]})
    removed = st.sampled_from(["message_id", "date", "chat"]).map(
        lambda name: {key: value for key, value in MESSAGE.items() if key != name}
    )
    return replaced | removed


def malformed_updates():
    kind = st.sampled_from(KINDS)
    return (
        st.tuples(kind, junk()).map(lambda pair: {"update_id": 1, pair[0]: pair[1]})
        | st.tuples(st.sampled_from(["message", "edited_message"]), broken_message()).map(
            lambda pair: {"update_id": 1, pair[0]: pair[1]}
        )
        | junk()
    )


async def test_fuzzed_updates_get_an_answer_and_never_a_traceback(api, start_bot, caplog):
    """Hypothesis posts JSON of every shape, and real messages with one field broken: each is
    refused 4xx quietly, or, when it is an update after all (a broken field Telegram may omit),
    answered 200 and handled without a traceback."""
    caplog.set_level(logging.INFO)
    async with webhook_bot(start_bot) as application:
        port = services_of(application).web.port
        bot = Bot(DEMO_TOKEN)

        async def check(value):
            caplog.clear()
            body = body_of(value)
            answer = await post(port, body)
            if answer.status == 200:
                read_update(body, bot)  # it was an update: it reads as one
                await api.settle(quiet=0.01)
                assert not any(record.exc_info or record.exc_text for record in caplog.records), value
            else:
                assert_refused_quietly(answer, caplog.records, value)

        await fuzz(malformed_updates(), check, examples=150)


async def test_every_update_telegram_sends_in_a_played_session_reads_as_one(api, start_bot, monkeypatch):
    """The check of an update's fields refuses nothing Telegram sends: the fake Telegram's
    updates of a Lopti session with a rule vote (commands, presses, a poll and its answers) and
    of the bot's membership changing (blocked, removed, added back) all read as
    updates."""
    sent = []
    queue = api._queue

    def recorded(kind, payload):
        update = queue(kind, payload)
        sent.append(update)
        return update

    monkeypatch.setattr(api, "_queue", recorded)
    sim = simulation(api, count=3, seed=1)
    async with start_bot() as application:
        await open_lopti(api, application, sim)
        poll = (await propose_ten_on_seven(api, sim, sim.users[0]))[-1]
        for user, yes in zip(sim.users, (True, True, False)):
            await vote(api, user, poll.poll_id, yes)
        api.block(sim.users[2])
        api.remove_bot(sim.group_id, by=sim.users[0])
        api.add_bot_back(sim.group_id, by=sim.users[0])
        await api.settle()
    kinds = {next(key for key in update if key != "update_id") for update in sent}
    assert {"message", "callback_query", "my_chat_member", "poll_answer"} <= kinds, kinds
    bot = Bot(DEMO_TOKEN)
    for update in sent:
        read_update(json.dumps(update).encode(), bot)
