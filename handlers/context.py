"""The typed context every handler receives, the services it reaches, and small shared helpers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, NamedTuple, TypeVar

from telegram import CallbackQuery, Chat, Message, Update, User
from telegram.constants import ChatMemberStatus
from telegram.error import TelegramError
from telegram.ext import Application, CallbackContext, ExtBot

from handlers.chat_keeper import ChatKeeper
from handlers.courier import Courier
from handlers.i18n import Translator, reader_translator, translator
from handlers.moves import Moves
from handlers.publisher import Publisher
from handlers.recent import Recent
from tables.arena_nights import ArenaNights
from tables.metrics import Metrics
from tables.models import Seat, TableRow
from tables.service import TableService
from tables.store import Store

MAX_NAME = 32


@dataclass
class Karata:
    """The services behind the handlers, built once by the composition root (bot/app.py) and
    kept under one key of `application.bot_data`; nothing else of the handlers lives there."""

    store: Store
    service: TableService
    publisher: Publisher
    courier: Courier
    # The one owner of whether a chat can be written to (handlers/chat_keeper.py).
    keeper: ChatKeeper
    # The bot's figures (/metrics, the owner's /status).
    metrics: Metrics
    # Update ids seen lately in this process (handlers/redelivery.py).
    recent_updates: Recent
    # The one door for presses and table buttons, chat and app alike, and their open branches.
    moves: Moves
    # Arena nights: a group's timed competition over the tables (tables/arena_nights.py).
    arenas: ArenaNights
    group_language: str
    # Where the games' full guides are (None: the source checkout's docs/games).
    guides_dir: Path | None = None
    # Telegram user ids of the bot's owners (KARATA_OWNER_IDS): /status.
    owners: frozenset[int] = frozenset()
    # The name last stored for each user seen (a cache: handlers/basics.py `track_user`).
    names_seen: dict[int, str] = field(default_factory=dict)
    # Costly table buttons pressed once, waiting for their second press: (table, user, key) -> when.
    confirmations: dict[tuple[int, int, str], float] = field(default_factory=dict)


# The key of the handlers' services in `application.bot_data`.
KARATA = "karata"


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
