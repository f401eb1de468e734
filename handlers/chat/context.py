"""The typed context every chat handler receives (its services: `context.karata`), and the small
helpers each handler starts from: who pressed what, where, and in which language."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, NamedTuple, TypeVar

from telegram import CallbackQuery, Chat, Message, Update, User
from telegram.constants import ChatMemberStatus
from telegram.error import TelegramError
from telegram.ext import Application, CallbackContext, ExtBot

from handlers.context import KARATA, Karata
from handlers.i18n import Translator, reader_translator, translator
from tables.models import Seat, TableRow

MAX_NAME = 32


class BotData(dict[str, Any]):
    """`application.bot_data`: a dict (so it stays what PTB and tests expect) with a typed door."""

    @property
    def karata(self) -> Karata:
        return self[KARATA]


class KarataContext(CallbackContext[ExtBot[None], dict[str, Any], dict[str, Any], BotData]):
    def __init__(self, application: Application, chat_id: int | None = None, user_id: int | None = None):
        super().__init__(application=application, chat_id=chat_id, user_id=user_id)

    @property
    def karata(self) -> Karata:
        return self.bot_data.karata


def seat_for(user: User) -> Seat:
    name = (user.first_name or user.username or str(user.id)).strip()[:MAX_NAME]
    return Seat(user.id, name)


async def user_translator(context: KarataContext, user_id: int) -> Translator:
    user = await context.karata.store.get_user(user_id)
    return reader_translator(user.language if user else None)


async def group_translator(context: KarataContext, chat_id: int) -> Translator:
    return translator(await context.karata.store.chat_language(chat_id) or context.karata.group_language)


async def chat_translator(context: KarataContext, chat: Chat, user: User | None) -> Translator:
    """Private chats speak the user's language; groups speak the group's."""
    if chat.type == Chat.PRIVATE and user is not None:
        found = await context.karata.store.get_user(user.id)
        return reader_translator(found.language if found else None, user.language_code)
    return await group_translator(context, chat.id)


def thread_of(message: Message | None) -> int:
    if message is not None and message.is_topic_message and message.message_thread_id:
        return message.message_thread_id
    return 0


async def is_admin(context: KarataContext, chat_id: int, user_id: int) -> bool:
    return await member_status(context, chat_id, user_id) in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)


async def is_member(context: KarataContext, chat_id: int, user_id: int) -> bool:
    return await member_status(context, chat_id, user_id) in (
        ChatMemberStatus.ADMINISTRATOR,
        ChatMemberStatus.OWNER,
        ChatMemberStatus.MEMBER,
        ChatMemberStatus.RESTRICTED,
    )


async def member_status(context: KarataContext, chat_id: int, user_id: int) -> str | None:
    try:
        member = await context.bot.get_chat_member(chat_id, user_id)
    except TelegramError:
        return None
    if member.status == ChatMemberStatus.RESTRICTED and not getattr(member, "is_member", True):
        return ChatMemberStatus.LEFT
    return member.status


async def table_of_chat(update: Update, context: KarataContext) -> tuple[Translator, TableRow] | None:
    """The live table of the chat (or forum topic) a command came from; when there is none the
    sender is told how to start one and None is returned."""
    chat, user, message = effective(update)
    _ = await chat_translator(context, chat, user)
    table = await context.karata.store.live_table(chat.id, thread_of(message))
    if table is None:
        await message.reply_text(_("There is no table here. Start one with /newgame."))
        return None
    return _, table


Data = TypeVar("Data")


class Press(NamedTuple, Generic[Data]):
    """What every button handler starts from: the press, its parsed button data, where and by
    whom it was pressed, and the words to answer in."""

    query: CallbackQuery
    data: Data
    chat: Chat
    user: User
    message: Message
    words: Translator  # the handler unpacks it as `_`


async def pressed(update: Update, context: KarataContext, parse: Callable[[str], Data]) -> Press[Data]:
    """The opening of a button handler. Forged or stale data fails in `parse`, before anything
    else is read."""
    query = update.callback_query
    assert query is not None and query.data is not None
    data = parse(query.data)
    chat, user, message = effective(update)
    return Press(query, data, chat, user, message, await chat_translator(context, chat, user))


def effective(update: Update) -> tuple[Chat, User, Message]:
    assert update.effective_chat and update.effective_user and update.effective_message
    return update.effective_chat, update.effective_user, update.effective_message
