"""The services a handler reaches through `context.bot_data`, and small helpers shared by handlers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from telegram import Chat, Message, Update, User
from telegram.constants import ChatMemberStatus
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot.i18n import Translator, translator
from bot.service import Loaded, TableService
from bot.storage import Seat, Store
from handlers.publisher import Publisher

MAX_NAME = 32


@dataclass
class Services:
    store: Store
    service: TableService
    publisher: Publisher


def services(context: ContextTypes.DEFAULT_TYPE) -> Services:
    return context.bot_data["karata"]


def seat_for(user: User) -> Seat:
    name = (user.first_name or user.username or str(user.id)).strip()[:MAX_NAME]
    return Seat(user.id, name)


async def remember(context: ContextTypes.DEFAULT_TYPE, user: User) -> Translator:
    """Record the user and return a translator in their language."""
    row = await services(context).store.remember_user(user.id, seat_for(user).name, user.language_code)
    return translator(row.language)


async def chat_translator(context: ContextTypes.DEFAULT_TYPE, chat: Chat, user: User | None) -> Translator:
    """Private chats speak the user's language; groups speak the group's."""
    if chat.type == Chat.PRIVATE and user is not None:
        return await remember(context, user)
    language = await services(context).store.chat_language(chat.id)
    return translator(language or services(context).publisher.group_language)


def thread_of(message: Message | None) -> int:
    if message is not None and message.is_topic_message and message.message_thread_id:
        return message.message_thread_id
    return 0


async def is_admin(context: ContextTypes.DEFAULT_TYPE, chat_id: int, user_id: int) -> bool:
    try:
        member = await context.bot.get_chat_member(chat_id, user_id)
    except TelegramError:
        return False
    return member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)


def effective(update: Update) -> tuple[Chat, User, Message]:
    assert update.effective_chat and update.effective_user and update.effective_message
    return update.effective_chat, update.effective_user, update.effective_message


@dataclass
class Press:
    """A button press on a running table, checked: the table plays and the presser is seated."""

    query: Any
    user: User
    chat: Chat
    message: Message
    _: Translator
    found: Services
    loaded: Loaded


async def running_table_press(update: Update, context: ContextTypes.DEFAULT_TYPE, table_id: int) -> Press | None:
    """Load the table a button belongs to; answer with a toast and return None when it cannot be
    pressed (the match is over, or the presser does not sit at it)."""
    from handlers import telegram_io
    from handlers.refusals import refusal_text

    query = update.callback_query
    chat, user, message = effective(update)
    _ = await chat_translator(context, chat, user)
    found = services(context)
    loaded = await found.service.load(table_id)
    if loaded is None or loaded.state is None or loaded.table.status != "playing":
        await telegram_io.answer(query, refusal_text("not_playing", None, {}, _))
        return None
    if loaded.table.seat_of(user.id) is None:
        await telegram_io.answer(query, refusal_text("not_seated", None, {}, _))
        return None
    return Press(query, user, chat, message, _, found, loaded)


async def table_of_chat(update: Update, context: ContextTypes.DEFAULT_TYPE) -> tuple[Translator, Any] | None:
    """The live table of the chat (or forum topic) a command came from; when there is none the
    sender is told how to start one and None is returned."""
    chat, user, message = effective(update)
    _ = await chat_translator(context, chat, user)
    table = await services(context).store.live_table(chat.id, thread_of(message))
    if table is None:
        await message.reply_text(_("There is no table here. Start one with /newgame."))
        return None
    return _, table
