"""Which language a chat speaks, changed the three ways it can change, with its menu kept in step.

A player who has not chosen with /language reads the language of the group they last joined a
table from (or opened one in): Telegram has no Swahili interface, so their app's language says
little. Their own choice wins everywhere from then on. A group speaks what its admin chose.
"""

from __future__ import annotations

from handlers.chat import profile
from handlers.chat.context import KarataContext, group_translator


async def adopt_group_language(context: KarataContext, group_chat_id: int, user_id: int) -> None:
    """The player sits at a table of this group: unless they chose, they now read its language."""
    store = context.karata.store
    before = await store.get_user(user_id)
    language = (await group_translator(context, group_chat_id)).language
    if before is None or before.language_chosen or before.language == language:
        return
    await store.adopt_language(user_id, language)
    await profile.follow_language(context.bot, user_id, True, language)


async def choose_own_language(context: KarataContext, user_id: int, language: str) -> None:
    await context.karata.store.set_user_language(user_id, language)
    await profile.follow_language(context.bot, user_id, True, language)


async def choose_group_language(context: KarataContext, chat_id: int, language: str) -> None:
    await context.karata.store.set_chat_language(chat_id, language)
    await profile.follow_language(context.bot, chat_id, False, language)
