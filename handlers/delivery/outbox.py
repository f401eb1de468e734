"""The Telegram calls that put a table's messages in front of people, and what their errors mean.

The publisher decides what each chat should show; these are the only calls it makes to show it
(send, edit, delete, send and stop a poll), each paced by the flood gate's `Rate`. What an error
means is said here once: a chat closed to the bot (`chat_gone`), a message that can no longer
be edited (sent anew), an edit that changed nothing (done).
"""

from __future__ import annotations

import logging

from telegram import Bot, InlineKeyboardMarkup
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, TelegramError

from handlers.delivery.flood import Rate
from handlers.delivery.screens import Screen

log = logging.getLogger(__name__)

# Telegram's words for a chat the bot can no longer write to (its 403s all mean that).
_CHAT_GONE = (
    "chat not found",
    "not enough rights",
    "have no rights",
    "chat_write_forbidden",
    "bot was kicked",
    "bot is not a member",
    "group chat was deleted",
)


def chat_gone(error: TelegramError) -> bool:
    """Whether a call failed because the chat is closed to the bot (not because of the call)."""
    return isinstance(error, Forbidden) or (
        isinstance(error, BadRequest) and any(words in str(error).lower() for words in _CHAT_GONE)
    )


class Outbox:
    def __init__(self, bot: Bot):
        self.bot = bot

    async def edit(self, screen: Screen, message_id: int, rate: Rate) -> int | None:
        """Edit in place; None when the message is gone (it is then sent anew)."""
        try:
            await self.bot.edit_message_text(
                screen.text,
                chat_id=screen.chat_id,
                message_id=message_id,
                parse_mode=ParseMode.HTML,
                reply_markup=screen.markup,
                disable_web_page_preview=True,
                rate_limit_args=rate,
            )
        except BadRequest as error:
            lowered = str(error).lower()
            if chat_gone(error):
                raise
            if "not modified" in lowered:
                return message_id
            if "not found" in lowered or "can't be edited" in lowered:
                return None
            raise
        return message_id

    async def send(self, screen: Screen, rate: Rate) -> int:
        message = await self.bot.send_message(
            screen.chat_id,
            screen.text,
            parse_mode=ParseMode.HTML,
            reply_markup=screen.markup if isinstance(screen.markup, InlineKeyboardMarkup) else None,
            message_thread_id=screen.thread_id or None,
            disable_web_page_preview=True,
            rate_limit_args=rate,
        )
        return message.message_id

    async def delete(self, chat_id: int, message_id: int, rate: Rate) -> None:
        """Delete a message; one that cannot be (too old, gone already) just stays."""
        try:
            await self.bot.delete_message(chat_id, message_id, rate_limit_args=rate)
        except TelegramError as error:
            log.debug("could not delete message %s in %s: %s", message_id, chat_id, error)

    async def send_poll(self, screen: Screen, rate: Rate) -> tuple[int, str]:
        """Post the screen's poll: (its message id, its poll id)."""
        assert screen.poll is not None
        message = await self.bot.send_poll(
            screen.chat_id,
            screen.poll.question,
            list(screen.poll.answers),
            is_anonymous=False,
            message_thread_id=screen.thread_id or None,
            rate_limit_args=rate,
        )
        assert message.poll is not None
        return message.message_id, message.poll.id

    async def stop_poll(self, chat_id: int, message_id: int, rate: Rate) -> None:
        """Close a poll; one that cannot be (gone already) is left as it is."""
        try:
            await self.bot.stop_poll(chat_id, message_id, rate_limit_args=rate)
        except TelegramError as error:
            log.debug("could not stop the poll %s in %s: %s", message_id, chat_id, error)
