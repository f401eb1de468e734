"""An update Telegram delivers again is a no-op: no second table, no "already started", no
second reply. Telegram sends an update again when the bot did not confirm it (the process died
after handling it) or when a webhook call is retried; python-telegram-bot passes it on as new.

Two memories, checked before any handler runs: the update ids under way or handled lately in
this process (a duplicate that arrives while the first is being handled), and the ids stored
once an update was handled to its end (a duplicate after a restart). Moves are not stored here:
the action log already names the press that made each one (tables/playing.py `act_with`), and a
press costs no extra write. A press delivered again is answered, silently: the first delivery's
answer may not have gone out before the crash.
"""

from __future__ import annotations

from telegram import Update
from telegram.ext import ApplicationHandlerStop

from handlers.chat import telegram_io
from handlers.chat.context import KarataContext
from handlers.presentation.callback_data import TableButton, TreeNode


def _is_move(update: Update) -> bool:
    query = update.callback_query
    return query is not None and (TreeNode.matches(query.data) or TableButton.matches(query.data))


def _stored(update: Update, bot_id: int) -> bool:
    """Whether the update is one the bot acts on, remembered once handled: a press (not a move),
    a poll answer, anything in a private chat, a command or a reply to the bot in a group. Not
    the rest of a group's talk, which a bot that reads every message would write down for nothing."""
    if update.callback_query is not None:
        return not _is_move(update)
    if update.poll_answer is not None:
        return True
    message = update.message
    if message is None:
        return False
    if message.chat.type == "private" or (message.text or "").startswith("/"):
        return True
    replied = message.reply_to_message
    return replied is not None and replied.from_user is not None and replied.from_user.id == bot_id


async def drop_repeated(update: object, context: KarataContext) -> None:
    """Before every handler: an update seen before goes no further."""
    if not isinstance(update, Update):
        return
    if not context.karata.recent_updates.add(update.update_id):
        raise ApplicationHandlerStop  # being handled, or handled, here: its first delivery answers
    if not _stored(update, context.bot.id) or not await context.karata.store.update_handled(update.update_id):
        return
    if update.callback_query is not None:
        await telegram_io.answer(update.callback_query)
    raise ApplicationHandlerStop


async def remember_handled(update: object, context: KarataContext) -> None:
    """After every handler: the update was handled to its end (moves: see the module's docstring)."""
    if isinstance(update, Update) and _stored(update, context.bot.id):
        await context.karata.store.remember_update(update.update_id)
