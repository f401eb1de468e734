"""What Telegram shows of Karata around a conversation: the command menu of each kind of chat in
each language, and the bot's name, description and short description.

Telegram picks a menu by the narrowest scope first, each with the user's app language before
without it. Private chats: Swahili by default and English for an English app (a first contact's
language, as `first_language` decides); a player whose private chat speaks another language (the
group they joined from, or their /language choice) gets a menu for that chat. Groups: one menu in
the default group language, since a group speaks its own language whatever each member's app
says; a group that chose another language gets a menu for that chat.

At start-up only what differs from what Telegram already has is set: setMyName and the
descriptions have tight limits of their own, and a restart should not spend them.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass

from telegram import (
    Bot,
    BotCommand,
    BotCommandScope,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeChat,
    BotCommandScopeDefault,
)
from telegram.error import TelegramError

from engine.registry import available_games
from handlers.i18n import LANGUAGES, N_, Translator, translator
from handlers.presentation.render.common import game_title

log = logging.getLogger(__name__)

# How long start-up may spend on the profile: a flood wait on setMyName can last hours, and the
# bot must serve its tables meanwhile (what is not set now is set at the next start).
PROFILE_SECONDS = 20.0


@dataclass(frozen=True)
class Command:
    name: str
    description: str  # a msgid: the menu's line, and the command's line in /help


START = Command("start", N_("Welcome, and how to play each game"))
NEWGAME = Command("newgame", N_("Open a card table in this group"))
TABLE = Command("table", N_("Post the table again"))
HAND = Command("hand", N_("Send my cards again"))
LEAVE = Command("leave", N_("Leave my game: a computer player takes my seat"))
PRACTICE = Command("newgame", N_("Practise a game against computer players"))
KADI = Command("kadi", N_("Call “Kadi Moja!”"))
RULES = Command("rules", N_("Show the house rules"))
VOTE = Command("vote", N_("Propose a Rule Vote (Lopti)"))
ENDSESSION = Command("endsession", N_("End this table's session"))
CANCEL = Command("cancel", N_("Close this group's table"))
PRACTICE_CANCEL = Command("cancel", N_("Close the practice table"))
GUIDE = Command("guide", N_("A game's full guide"))
LANGUAGE = Command("language", N_("Choose Swahili or English"))
GROUP_LANGUAGE = Command("language", N_("Choose this group's language (admins)"))
HELP = Command("help", N_("What Karata can do"))
STATS = Command("stats", N_("My record: matches, wins, rating"))
TOP = Command("top", N_("This group's best players"))
HISTORY = Command("history", N_("This group's last matches"))
SEASON = Command("season", N_("This season: when it ends, and my place"))
ARENA = Command("arena", N_("Open an arena: as many matches as you can in the time"))
FORGET = Command("forget", N_("Delete my name and records"))

# Only the commands that work in each kind of chat (the handlers decide; /help lists the same).
GROUP_COMMANDS = (NEWGAME, ARENA, TABLE, HAND, KADI, RULES, VOTE, LEAVE, ENDSESSION, CANCEL, STATS, TOP, SEASON,
                  HISTORY, GUIDE, GROUP_LANGUAGE, HELP)  # fmt: skip
PRIVATE_COMMANDS = (START, PRACTICE, HAND, LEAVE, PRACTICE_CANCEL, STATS, GUIDE, LANGUAGE, FORGET, HELP)
# Chats of no other kind exist for a bot's menu; these work anywhere.
DEFAULT_COMMANDS = (HAND, LANGUAGE, HELP)


def commands_of(private: bool) -> tuple[Command, ...]:
    return PRIVATE_COMMANDS if private else GROUP_COMMANDS


def menu(commands: Sequence[Command], _: Translator) -> list[BotCommand]:
    return [BotCommand(command.name, _(command.description)) for command in commands]


def games_named(_: Translator) -> str:
    """The five games as this language lists them («Lopti, Kadi, … na Tatu–Kumi na Tatu»)."""
    return _.list(game_title(game, _) for game in available_games())


def bot_name(_: Translator) -> str:
    # TRANSLATORS: the bot's name, shown over each of its messages: keep it short.
    return _("Karata")


def description(_: Translator) -> str:
    """What a person sees in the empty private chat before pressing Start (at most 512 characters)."""
    return "\n\n".join(
        [
            _("I host card games in Telegram groups: {games}.", games=games_named(_)),
            _(
                "Add me to your group and send /newgame there. Friends press Join, and each player's "
                "cards arrive in their private chat with me."
            ),
            _("Press Start to learn how each game is played. Kiswahili or English: /language."),
        ]
    )


def short_description(_: Translator) -> str:
    """The line on the bot's profile and in shared links (at most 120 characters)."""
    return _("Card games for Telegram groups: Lopti, Kadi, Pitch, Euchre, Three Thirteen. Swahili and English.")


# (language of the text, language_code it is set for): None is every language without its own.
PROFILE_LANGUAGES = (("sw", None), ("en", "en"))


def wanted_menus(group_language: str) -> list[tuple[BotCommandScope, str | None, list[BotCommand]]]:
    """Every menu the bot sets at start-up: (scope, language_code, commands)."""
    menus: list[tuple[BotCommandScope, str | None, list[BotCommand]]] = [
        (BotCommandScopeAllGroupChats(), None, menu(GROUP_COMMANDS, translator(group_language)))
    ]
    for language, code in PROFILE_LANGUAGES:
        _ = translator(language)
        menus.append((BotCommandScopeAllPrivateChats(), code, menu(PRIVATE_COMMANDS, _)))
        menus.append((BotCommandScopeDefault(), code, menu(DEFAULT_COMMANDS, _)))
    return menus


async def publish_profile(bot: Bot, group_language: str) -> None:
    """Menus, name and descriptions at start-up; a failure is logged, never fatal."""
    try:
        await asyncio.wait_for(_publish(bot, group_language), PROFILE_SECONDS)
    except (TelegramError, TimeoutError) as error:
        log.warning("could not set the bot's menus and descriptions now (%s); the next start tries again", error)


async def _publish(bot: Bot, group_language: str) -> None:
    menus = [_ensure_menu(bot, scope, code, commands) for scope, code, commands in wanted_menus(group_language)]
    profiles = [_ensure_profile(bot, code, translator(language)) for language, code in PROFILE_LANGUAGES]
    await asyncio.gather(*menus, *profiles)


async def _ensure_profile(bot: Bot, code: str | None, _: Translator) -> None:
    if (await bot.get_my_name(code)).name != bot_name(_):
        await bot.set_my_name(bot_name(_), code)
    if (await bot.get_my_description(code)).description != description(_):
        await bot.set_my_description(description(_), code)
    if (await bot.get_my_short_description(code)).short_description != short_description(_):
        await bot.set_my_short_description(short_description(_), code)


async def _ensure_menu(bot: Bot, scope: BotCommandScope, code: str | None, commands: list[BotCommand]) -> None:
    shown = await bot.get_my_commands(scope=scope, language_code=code)
    if [(c.command, c.description) for c in shown] != [(c.command, c.description) for c in commands]:
        await bot.set_my_commands(commands, scope=scope, language_code=code)


async def follow_language(bot: Bot, chat_id: int, private: bool, language: str) -> None:
    """The menu of one chat in the language it now speaks (a player's private chat after they
    joined from a group or chose; a group after its admin chose)."""
    if language not in LANGUAGES:
        return
    try:
        await bot.set_my_commands(menu(commands_of(private), translator(language)), scope=BotCommandScopeChat(chat_id))
    except TelegramError as error:
        log.info("could not set the menu of chat %s: %s", chat_id, error)
