"""sendDocument uploads from python-telegram-bot, read back by the test; captions and their edits."""

from __future__ import annotations

import pytest
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden

from tests.fakeapi.helpers import ALICE, GROUP, kb

pytestmark = pytest.mark.asyncio

CSV = "player,score\nAlice,12\nBob,-3\n".encode()


async def test_an_uploaded_document_can_be_read_back(env):
    fake, bot, alice, bob = env
    sent = await bot.send_document(
        GROUP,
        CSV,
        filename="scores.csv",
        caption="<b>Scores</b> &amp; more",
        parse_mode=ParseMode.HTML,
        reply_markup=kb([("Again", "again")]),
    )
    assert sent.document.file_name == "scores.csv" and sent.document.file_size == len(CSV)
    assert sent.caption == "Scores & more" and sent.caption_entities[0].type == "bold"
    assert sent.text is None

    [rec] = fake.documents(GROUP)
    assert rec.document.content == CSV and rec.document.file_name == "scores.csv"
    assert rec.document.mime_type == "text/csv"
    assert rec.caption == "Scores & more" and rec.text == "<b>Scores</b> &amp; more"
    assert rec.buttons == [[("Again", "again")]]
    assert fake.files[sent.document.file_id] is rec.document

    again = await bot.send_document(GROUP, sent.document.file_id)  # re-sent by file_id, no caption
    assert again.document.file_id == sent.document.file_id and again.caption is None
    assert fake.documents(GROUP)[1].document.content == CSV
    assert fake.flood_stats().calls_per_chat[GROUP] == 2  # sendDocument is counted


async def test_bad_documents_and_captions_are_refused(env):
    fake, bot, *_ = env
    with pytest.raises(BadRequest, match="Wrong file identifier"):
        await bot.send_document(GROUP, "no-such-file-id")
    with pytest.raises(BadRequest, match="File must be non-empty"):
        await bot.send_document(GROUP, b"", filename="empty.txt")
    with pytest.raises(BadRequest, match="Message caption is too long"):
        await bot.send_document(GROUP, CSV, filename="s.csv", caption="c" * 1025)
    with pytest.raises(BadRequest, match="Can't parse entities"):
        await bot.send_document(GROUP, CSV, filename="s.csv", caption="Tom & Jerry", parse_mode=ParseMode.HTML)
    with pytest.raises(BadRequest, match="Chat not found"):
        await bot.send_document(-42, CSV, filename="s.csv")
    assert fake.documents(GROUP) == []


async def test_captions_are_edited_like_texts(env, clock):
    fake, bot, *_ = env
    sent = await bot.send_document(GROUP, CSV, filename="s.csv", caption="Round 1")
    clock.advance(3)
    edited = await bot.edit_message_caption(GROUP, sent.message_id, caption="<i>Round 2</i>", parse_mode=ParseMode.HTML)
    assert edited.caption == "Round 2" and edited.caption_entities[0].type == "italic"
    with pytest.raises(BadRequest, match="Message is not modified"):
        await bot.edit_message_caption(GROUP, sent.message_id, caption="<i>Round 2</i>", parse_mode=ParseMode.HTML)
    with pytest.raises(BadRequest, match="There is no text in the message to edit"):
        await bot.edit_message_text("text", GROUP, sent.message_id)
    text = await bot.send_message(GROUP, "plain")
    with pytest.raises(BadRequest, match="There is no caption in the message to edit"):
        await bot.edit_message_caption(GROUP, text.message_id, caption="caption")
    await bot.edit_message_caption(GROUP, sent.message_id)  # no caption: removed
    rec = fake.message(GROUP, sent.message_id)
    assert rec.plain_history == ["Round 1", "Round 2", None] and rec.caption is None
    assert rec.edit_times == [1003, 1003]


async def test_a_private_document_needs_a_started_chat(env):
    fake, bot, alice, bob = env
    with pytest.raises(Forbidden, match="initiate conversation"):
        await bot.send_document(ALICE, CSV, filename="s.csv")
    await fake.user_starts_bot(alice)
    await bot.send_document(ALICE, CSV, filename="s.csv", caption="your scores")
    assert fake.documents(ALICE)[0].caption == "your scores"
