"""The fake Bot API's basics (messages, HTML, users, updates), driven by a real telegram.Bot over HTTP."""

from __future__ import annotations

import asyncio
import json
import urllib.parse

import aiohttp
import pytest
from telegram.constants import ParseMode
from telegram.error import BadRequest, Conflict, EndPointNotFound, Forbidden, RetryAfter

from fakeapi import FakeBotAPI, parse_html
from tests.fakeapi.helpers import ALICE, BOB, CAROL, GROUP, TOKEN, kb


@pytest.mark.asyncio
async def test_get_me(env):
    fake, bot, *_ = env
    me = await bot.get_me()
    assert me.username == "karata_bot" and me.is_bot and me.id == fake.bot_id
    assert me.can_join_groups is True
    assert fake.base_url.startswith("http://127.0.0.1:") and fake.base_url.endswith("/bot")


@pytest.mark.asyncio
async def test_send_edit_and_not_modified(env):
    fake, bot, *_ = env
    msg = await bot.send_message(
        GROUP, "<b>Hello</b> &lt;Bob&gt;", parse_mode=ParseMode.HTML, reply_markup=kb([("Join", "join:1")])
    )
    assert msg.text == "Hello <Bob>"
    assert msg.entities[0].type == "bold"
    rec = fake.last_message(GROUP)
    assert rec.text == "<b>Hello</b> &lt;Bob&gt;" and rec.parse_mode == "HTML"
    assert fake.message(GROUP, msg.message_id).buttons == [[("Join", "join:1")]]

    edited = await bot.edit_message_text("Round 2", GROUP, msg.message_id, reply_markup=kb([("Play", "play")]))
    assert edited.text == "Round 2" and edited.edit_date is not None
    with pytest.raises(
        BadRequest, match="Message is not modified: specified new message content and reply markup are exactly the same"
    ):
        await bot.edit_message_text("Round 2", GROUP, msg.message_id, reply_markup=kb([("Play", "play")]))
    # editMessageText without reply_markup removes the keyboard, like Telegram.
    await bot.edit_message_text("Round 2", GROUP, msg.message_id)
    assert fake.message(GROUP, msg.message_id).buttons == []
    await bot.edit_message_reply_markup(GROUP, msg.message_id, reply_markup=kb([("X", "x")]))
    with pytest.raises(BadRequest, match="Message is not modified"):
        await bot.edit_message_reply_markup(GROUP, msg.message_id, reply_markup=kb([("X", "x")]))

    rec = fake.message(GROUP, msg.message_id)
    assert rec.edit_count == 3
    assert [t for t, _ in rec.history] == ["<b>Hello</b> &lt;Bob&gt;", "Round 2", "Round 2", "Round 2"]

    assert await bot.delete_message(GROUP, msg.message_id) is True
    assert fake.message(GROUP, msg.message_id).deleted
    with pytest.raises(BadRequest, match="Message to delete not found"):
        await bot.delete_message(GROUP, msg.message_id)
    with pytest.raises(BadRequest, match="Message to edit not found"):
        await bot.edit_message_text("gone", GROUP, msg.message_id)
    assert ("deleteMessage", {"chat_id": GROUP, "message_id": msg.message_id}) in fake.calls


@pytest.mark.asyncio
async def test_text_limits_and_button_data(env):
    fake, bot, *_ = env
    with pytest.raises(BadRequest, match="Message is too long"):
        await bot.send_message(GROUP, "x" * 4097)
    await bot.send_message(GROUP, "x" * 4096)
    with pytest.raises(BadRequest, match="Message text is empty"):
        await bot.send_message(GROUP, "   ")
    with pytest.raises(BadRequest, match="Button_data_invalid"):
        await bot.send_message(GROUP, "hi", reply_markup=kb([("a", "d" * 65)]))
    with pytest.raises(BadRequest, match="Chat not found"):
        await bot.send_message(999999, "hi")


@pytest.mark.asyncio
async def test_html_parse_errors(env):
    fake, bot, *_ = env
    for bad in ["<b>unclosed", "Tom & Jerry", "a < b", "<script>x</script>", "<b><i>x</b></i>", "x</b>"]:
        with pytest.raises(BadRequest, match="Can't parse entities"):
            await bot.send_message(GROUP, bad, parse_mode=ParseMode.HTML)
    ok = await bot.send_message(
        GROUP,
        '<a href="https://t.me/karata_bot?start=g1">join</a> <tg-spoiler>s</tg-spoiler> '
        '<span class="tg-spoiler">t</span> <pre><code class="language-py">x</code></pre>'
        " &amp; &quot;q&quot; &#39;",
        parse_mode=ParseMode.HTML,
    )
    assert ok.text == 'join s t x & "q" \''
    assert [e.type for e in ok.entities] == ["text_link", "spoiler", "spoiler", "pre"]
    # Without parse_mode the same text is fine.
    await bot.send_message(GROUP, "Tom & Jerry <3")
    plain, _ = parse_html("Tom & Jerry", strict_ampersand=False)
    assert plain == "Tom & Jerry"
    # The bot formats with HTML only; the fake says so instead of guessing at Markdown.
    with pytest.raises(BadRequest, match="(?i)parses HTML only"):
        await bot.send_message(GROUP, "*Score*", parse_mode=ParseMode.MARKDOWN_V2)


@pytest.mark.asyncio
async def test_private_chat_needs_start_and_block(env):
    fake, bot, alice, bob = env
    with pytest.raises(Forbidden, match="bot can't initiate conversation with a user"):
        await bot.send_message(ALICE, "hello")
    start = await fake.user_starts_bot(alice, payload="join_42")
    assert start["text"] == "/start join_42"
    assert start["entities"] == [{"type": "bot_command", "offset": 0, "length": 6}]
    await bot.send_message(ALICE, "hello")
    assert fake.last_message(ALICE).text == "hello"
    fake.block(alice)
    with pytest.raises(Forbidden, match="bot was blocked by the user"):
        await bot.send_message(ALICE, "again")
    with pytest.raises(Forbidden, match="bot was blocked by the user"):
        await bot.send_chat_action(ALICE, "typing")
    await fake.open_link(alice, "https://t.me/karata_bot?start=back")
    await bot.send_message(ALICE, "welcome back")
    kinds = [type(u.effective_message or u.my_chat_member).__name__ for u in await bot.get_updates()]
    assert kinds == ["Message", "ChatMemberUpdated", "ChatMemberUpdated", "Message"]


@pytest.mark.asyncio
async def test_scripted_flood(env):
    fake, bot, *_ = env
    fake.flood("sendMessage", retry_after=3, times=2)
    for _ in range(2):
        with pytest.raises(RetryAfter) as ei:
            await bot.send_message(GROUP, "spam")
        # .retry_after is an int (deprecated) or a timedelta with PTB_TIMEDELTA set
        assert ei.value._retry_after.total_seconds() == 3
    await bot.send_message(GROUP, "ok now")
    assert fake.errors[0][2:] == (429, "Too Many Requests: retry after 3")


@pytest.mark.asyncio
async def test_long_poll_gets_pressed_callback_and_answer_recorded(env):
    fake, bot, alice, bob = env
    msg = await bot.send_message(GROUP, "Pick", reply_markup=kb([("Hearts", "suit:h")]))
    poll_task = asyncio.create_task(bot.get_updates(timeout=5, allowed_updates=["callback_query", "message"]))
    await asyncio.sleep(0.05)
    assert not poll_task.done()  # really waiting
    with pytest.raises(ValueError):
        await fake.press(bob, GROUP, msg.message_id, "suit:s")  # no such button
    with pytest.raises(ValueError):
        await fake.press(CAROL, GROUP, msg.message_id, "suit:h")  # not in the group
    qid = await fake.press(bob, GROUP, msg.message_id, "suit:h")
    updates = await asyncio.wait_for(poll_task, 2)
    assert len(updates) == 1
    cq = updates[0].callback_query
    assert cq.id == qid and cq.data == "suit:h" and cq.from_user.id == BOB
    assert cq.message.message_id == msg.message_id

    await bot.answer_callback_query(qid, text="Not your turn", show_alert=True)
    answer = await fake.wait_for_answer(qid, timeout=1)
    assert answer["text"] == "Not your turn" and answer["show_alert"] is True
    with pytest.raises(BadRequest, match="Query is too old"):
        await bot.answer_callback_query(qid)
    with pytest.raises(BadRequest, match="Query is too old"):
        await bot.answer_callback_query("424242")

    forged = await fake.press_forged(bob, GROUP, msg.message_id, "suit:admin")
    # offset confirms the first update; only the forged press remains
    again = await bot.get_updates(offset=updates[0].update_id + 1, timeout=1)
    assert [u.callback_query.id for u in again] == [forged]
    assert again[0].update_id > updates[0].update_id
    assert await bot.get_updates(offset=again[0].update_id + 1, timeout=0) == ()


@pytest.mark.asyncio
async def test_user_messages_commands_and_privacy_mode(env):
    fake, bot, alice, bob = env
    cmd = await fake.send_text(alice, GROUP, "/newgame@karata_bot kadi")
    assert cmd["entities"] == [{"type": "bot_command", "offset": 0, "length": 19}]
    await fake.send_text(bob, GROUP, "just chatting")  # privacy mode: not delivered
    await fake.send_text(bob, GROUP, "/help@other_bot")  # not for us
    reply_target = await bot.send_message(GROUP, "Your name?")
    await fake.send_text(bob, GROUP, "Bob", reply_to_message_id=reply_target.message_id)
    updates = await bot.get_updates(timeout=0)
    texts = [u.message.text for u in updates]
    assert texts == ["/newgame@karata_bot kadi", "Bob"]
    assert updates[1].message.reply_to_message.message_id == reply_target.message_id
    assert [m.text for m in fake.messages(GROUP) if not m.from_bot] == [
        "/newgame@karata_bot kadi",
        "just chatting",
        "/help@other_bot",
        "Bob",
    ]


@pytest.mark.asyncio
async def test_polls(env):
    fake, bot, alice, bob = env
    msg = await bot.send_poll(GROUP, "Trump suit?", ["Hearts", "Spades", "Clubs"], is_anonymous=False)
    assert msg.poll.question == "Trump suit?" and not msg.poll.is_anonymous
    await fake.answer_poll(bob, msg.poll.id, [1])
    updates = await bot.get_updates(timeout=1, allowed_updates=["poll_answer"])
    assert len(updates) == 1
    pa = updates[0].poll_answer
    assert pa.poll_id == msg.poll.id and pa.option_ids == (1,) and pa.user.id == BOB
    stopped = await bot.stop_poll(GROUP, msg.message_id)
    assert stopped.is_closed and stopped.options[1].voter_count == 1
    with pytest.raises(BadRequest, match="Poll has already been closed"):
        await bot.stop_poll(GROUP, msg.message_id)


@pytest.mark.asyncio
async def test_forum_topics_and_webhook(env):
    fake, bot, alice, bob = env
    fake.add_group(
        -100777, "Forum", members={ALICE: "administrator", BOB: "member"}, forum=True, bot_status="administrator"
    )
    tid = fake.add_topic(-100777, "Lopti table")
    m = await bot.send_message(-100777, "in topic", message_thread_id=tid)
    assert m.message_thread_id == tid and m.is_topic_message
    with pytest.raises(BadRequest, match="Message thread not found"):
        await bot.send_message(-100777, "x", message_thread_id=9999)
    user_msg = await fake.send_text(bob, -100777, "hello all", thread_id=tid)  # admin bot sees
    assert user_msg["message_thread_id"] == tid
    assert (await bot.get_updates())[0].message.text == "hello all"

    await bot.set_webhook("https://example.org/hook", secret_token="s3")
    assert fake.webhook["url"] == "https://example.org/hook" and fake.webhook["secret_token"] == "s3"
    with pytest.raises(Conflict, match="webhook is active"):
        await bot.get_updates()
    await bot.delete_webhook()
    assert fake.webhook == {}


@pytest.mark.asyncio
async def test_raw_http_encodings_and_unknown_method(env):
    fake, bot, alice, bob = env
    url = f"{fake.base_url}{TOKEN}/sendMessage"
    markup = {"inline_keyboard": [[{"text": "Go", "callback_data": "go"}]]}
    async with aiohttp.ClientSession() as s:
        async with s.post(url, json={"chat_id": GROUP, "text": "json body", "reply_markup": markup}) as r:
            body = await r.json()
            assert body["ok"] and body["result"]["reply_markup"] == markup
        form = aiohttp.FormData()
        form.add_field("chat_id", str(GROUP))
        form.add_field("text", "123")
        form.add_field("reply_markup", json.dumps(markup))
        async with s.post(url, data=form) as r:
            assert (await r.json())["result"]["text"] == "123"
        q = urllib.parse.urlencode({"chat_id": GROUP, "text": "via get"})
        async with s.get(f"{url}?{q}") as r:
            assert (await r.json())["ok"]
        async with s.post(f"{fake.base_url}{TOKEN}/frobnicate") as r:
            assert r.status == 404
            assert await r.json() == {"ok": False, "error_code": 404, "description": "Not Found"}
    assert fake.last_message(GROUP).text == "via get"
    assert fake.last_message(GROUP).buttons == []
    assert fake.message(GROUP, 2).reply_markup == markup
    with pytest.raises(EndPointNotFound):  # PTB maps our 404 "Not Found" to this
        await bot.do_api_request("frobnicate")


@pytest.mark.asyncio
async def test_settle(env):
    fake, bot, alice, bob = env
    await fake.user_starts_bot(CAROL)
    await bot.send_message(CAROL, "hello carol")

    with pytest.raises(TimeoutError):
        await fake.settle(quiet=0.05, timeout=0.2)  # the /start update was never fetched
    await bot.get_updates()
    await fake.settle(quiet=0.05, timeout=2)
    await fake.wait_until(lambda: fake.last_message(CAROL) is not None, timeout=1)


@pytest.mark.asyncio
async def test_ptb_application_polling_end_to_end():
    """A real PTB Application polls the fake: /start deep link, button press, toast, edit."""
    import html

    from telegram.ext import Application, CallbackQueryHandler, CommandHandler

    async def start(update, context):
        name = html.escape(update.effective_user.first_name)
        await update.effective_chat.send_message(
            f"Hi <b>{name}</b>, payload {context.args}", parse_mode=ParseMode.HTML, reply_markup=kb([("Deal", "deal")])
        )

    async def button(update, context):
        await update.callback_query.answer("Dealing…")
        await update.callback_query.edit_message_text("Dealt")

    async with FakeBotAPI() as fake:
        user = fake.add_user(ALICE, "<Al & Co>")
        app = Application.builder().token(TOKEN).base_url(fake.base_url).base_file_url(fake.base_file_url).build()
        app.add_handler(CommandHandler("start", start))
        app.add_handler(CallbackQueryHandler(button))
        async with app:
            await app.start()
            await app.updater.start_polling(drop_pending_updates=True)
            try:
                await fake.user_starts_bot(user, payload="g42")
                await fake.wait_until(lambda: fake.last_message(ALICE), timeout=5)
                msg = fake.last_message(ALICE)
                assert msg.plain == "Hi <Al & Co>, payload ['g42']"
                qid = await fake.press(user, ALICE, msg.message_id, "deal")
                assert (await fake.wait_for_answer(qid))["text"] == "Dealing…"
                await fake.settle(quiet=0.1, timeout=5)
                assert fake.last_message(ALICE).text == "Dealt"
                assert fake.errors == []
            finally:
                await app.updater.stop()
                await app.stop()
