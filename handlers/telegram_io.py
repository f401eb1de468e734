"""Sending and editing with Telegram's refusals turned into plain results.

"Message is not modified" is success; a missing message is re-sent; a private chat that fails
(the user never started the bot, or blocked it) is reported as `None` so the caller can tell
the group. Flood waits are retried by the AIORateLimiter before they reach us.
"""

from __future__ import annotations

import logging
from typing import Any

from telegram import Bot, InlineKeyboardMarkup, Message
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, RetryAfter, TelegramError

log = logging.getLogger(__name__)


class Unreachable(Exception):
    """The user's private chat cannot be written to."""


async def send(
    bot: Bot,
    chat_id: int,
    text: str,
    markup: InlineKeyboardMarkup | None = None,
    thread_id: int | None = None,
) -> Message:
    try:
        return await bot.send_message(
            chat_id,
            text,
            parse_mode=ParseMode.HTML,
            reply_markup=markup,
            message_thread_id=thread_id or None,
            disable_web_page_preview=True,
        )
    except Forbidden as error:
        raise Unreachable(str(error)) from error


async def edit_or_send(
    bot: Bot,
    chat_id: int,
    message_id: int | None,
    text: str,
    markup: InlineKeyboardMarkup | None = None,
    thread_id: int | None = None,
) -> int:
    """Edit the message in place, or send a new one when there is none; return its id."""
    if message_id is not None:
        try:
            await bot.edit_message_text(
                text,
                chat_id=chat_id,
                message_id=message_id,
                parse_mode=ParseMode.HTML,
                reply_markup=markup,
                disable_web_page_preview=True,
            )
            return message_id
        except BadRequest as error:
            lowered = str(error).lower()
            if "not modified" in lowered:
                return message_id
            if "not found" not in lowered and "can't be edited" not in lowered:
                raise
        except Forbidden as error:
            raise Unreachable(str(error)) from error
    message = await send(bot, chat_id, text, markup, thread_id)
    return message.message_id


async def delete_quietly(bot: Bot, chat_id: int, message_id: int) -> None:
    try:
        await bot.delete_message(chat_id, message_id)
    except (TelegramError, RetryAfter) as error:
        log.debug("could not delete message %s in %s: %s", message_id, chat_id, error)


async def answer(query: Any, text: str | None = None, alert: bool = False) -> None:
    try:
        await query.answer(text, show_alert=alert)
    except BadRequest as error:
        # A query that took too long to handle can no longer be answered; nothing is lost.
        log.debug("callback answer failed: %s", error)
