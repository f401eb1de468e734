"""Answering a button press and replying to a message, with Telegram's refusals made harmless.

Every other message goes through the publisher; these are the direct answers a handler gives
the person in front of it. A refusal is harmless to the handler, not lost: the flood limiter,
which every call passes, tells the chat keeper of each 403 (handlers/delivery/chat_keeper.py decides what
a closed chat means).
"""

from __future__ import annotations

import asyncio
import logging
import time
from contextvars import ContextVar
from typing import Any

from telegram import InlineKeyboardMarkup, Message
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, NetworkError

log = logging.getLogger(__name__)

# Telegram takes the answer to a press for about 15 seconds after it; an answer that fails (a
# 5xx, a cut or hung connection) is tried again until then, waiting longer each time.
ANSWER_WINDOW_SECONDS = 15.0
ANSWER_FIRST_RETRY_SECONDS = 0.5
# How long one answer call may hang: short, so that a hung one leaves time to try again.
ANSWER_TIMEOUT_SECONDS = 4.0

# When the update being handled arrived (set by the first handler every update passes).
_arrived: ContextVar[float | None] = ContextVar("arrived", default=None)


def note_arrival() -> None:
    """The update this task handles has just arrived: a press's answer window starts now."""
    _arrived.set(time.monotonic())


def press_request(update: Any) -> str | None:
    """The name a press goes by in the action log: a press redelivered after a crash has the
    same one, and is answered as what it did."""
    query = update.callback_query
    return f"cq:{query.id}" if query is not None and query.id else None


async def answer(query: Any, text: str | None = None, alert: bool = False, url: str | None = None) -> None:
    """Answer a press (the spinner stops; a text shows as a toast, or `url` opens: our deep links
    only). Plain text: never HTML. A failed call is tried again while Telegram still takes the
    answer; it never raises, so what the press did is never reported as a failure."""
    deadline = (_arrived.get() or time.monotonic()) + ANSWER_WINDOW_SECONDS
    delay = ANSWER_FIRST_RETRY_SECONDS
    while True:
        try:
            await query.answer(
                text[:200] if text else None, show_alert=alert, url=url, read_timeout=ANSWER_TIMEOUT_SECONDS
            )
            return
        except BadRequest as error:
            # Too old, or already answered (a hung call that did arrive): nothing more to do.
            log.debug("callback answer failed: %s", error)
            return
        except NetworkError as error:  # a 5xx, a refused, cut or timed-out connection
            left = deadline - time.monotonic()
            if left <= 0:
                log.info("gave up answering a press: %s", error)
                return
            log.debug("answering a press failed (%s); trying again in %.1f s", error, min(delay, left))
            await asyncio.sleep(min(delay, left))
            delay *= 2


async def reply(
    message: Message, text: str, markup: InlineKeyboardMarkup | None = None, html: bool = False
) -> Message | None:
    """Reply with plain text (or HTML whose player-given parts the caller escaped); None when the
    chat does not take it (the bot was blocked or removed)."""
    try:
        return await message.reply_text(
            text,
            parse_mode=ParseMode.HTML if html else None,
            reply_markup=markup,
            disable_web_page_preview=True,
        )
    except (Forbidden, BadRequest) as error:
        log.info("could not reply in %s: %s", message.chat_id, error)
        return None


async def edit(query: Any, text: str, markup: InlineKeyboardMarkup | None = None) -> None:
    """Edit the message a press came from, in answer to it (HTML whose player-given parts the
    caller escaped)."""
    try:
        await query.edit_message_text(
            text, parse_mode=ParseMode.HTML, reply_markup=markup, disable_web_page_preview=True
        )
    except BadRequest as error:
        log.debug("could not edit the pressed message: %s", error)


async def send(bot: Any, chat_id: int, text: str, markup: InlineKeyboardMarkup | None = None) -> Message | None:
    """Send an HTML message to a private chat in answer to its user; None when the chat does not
    take it (the bot was blocked)."""
    try:
        return await bot.send_message(
            chat_id, text, parse_mode=ParseMode.HTML, reply_markup=markup, disable_web_page_preview=True
        )
    except (Forbidden, BadRequest) as error:
        log.info("could not send to %s: %s", chat_id, error)
        return None
