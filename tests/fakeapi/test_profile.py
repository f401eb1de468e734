"""The bot's profile: name and descriptions per language, command lists per scope and language, and
the menu a user is shown by Telegram's documented order."""

from __future__ import annotations

import pytest
from telegram import (
    BotCommand,
    BotCommandScopeAllChatAdministrators,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeChat,
    BotCommandScopeChatAdministrators,
    BotCommandScopeChatMember,
    BotCommandScopeDefault,
)
from telegram.error import BadRequest

from tests.fakeapi.helpers import ALICE, BOB, CAROL, GROUP

pytestmark = pytest.mark.asyncio


async def test_name_per_language_falls_back_to_the_default(env):
    fake, bot, *_ = env
    assert (await bot.get_my_name()).name == "Karata"
    await bot.set_my_name("Karata EN", language_code="en")
    assert (await bot.get_my_name("en")).name == "Karata EN"
    assert (await bot.get_my_name("sw")).name == "Karata"
    await bot.set_my_name("Karata Bot")
    assert (await bot.get_me()).first_name == "Karata Bot"  # the default name is the bot's name
    await bot.set_my_name(None, language_code="en")  # no name: the dedicated one is removed
    assert (await bot.get_my_name("en")).name == "Karata Bot"
    assert fake.bot_names == {}
    with pytest.raises(BadRequest, match="Invalid language code specified"):
        await bot.set_my_name("Karata", language_code="en_US")
    with pytest.raises(BadRequest, match="too long"):
        await bot.set_my_name("K" * 65)
    with pytest.raises(BadRequest):
        await bot.set_my_name("")  # the bot must keep a name


async def test_descriptions_per_language(env):
    fake, bot, *_ = env
    assert (await bot.get_my_description()).description == ""
    await bot.set_my_description("Card games for groups")
    await bot.set_my_description("Michezo ya karata", language_code="sw")
    assert (await bot.get_my_description("sw")).description == "Michezo ya karata"
    assert (await bot.get_my_description("en")).description == "Card games for groups"
    await bot.set_my_description("", language_code="sw")
    assert (await bot.get_my_description("sw")).description == "Card games for groups"
    await bot.set_my_description("d" * 512)
    with pytest.raises(BadRequest, match="too long"):
        await bot.set_my_description("d" * 513)

    await bot.set_my_short_description("Karata", language_code="sw")
    assert (await bot.get_my_short_description("sw")).short_description == "Karata"
    assert (await bot.get_my_short_description()).short_description == ""
    await bot.set_my_short_description("s" * 120)
    with pytest.raises(BadRequest, match="too long"):
        await bot.set_my_short_description("s" * 121)
    assert fake.bot_short_descriptions == {"sw": "Karata", "": "s" * 120}


async def test_commands_are_stored_per_scope_and_language(env):
    fake, bot, *_ = env
    lists = {
        BotCommandScopeDefault(): "help",
        BotCommandScopeAllPrivateChats(): "start",
        BotCommandScopeAllGroupChats(): "newgame",
        BotCommandScopeAllChatAdministrators(): "settings",
        BotCommandScopeChat(GROUP): "table",
        BotCommandScopeChatAdministrators(GROUP): "endsession",
        BotCommandScopeChatMember(GROUP, BOB): "hand",
    }
    for scope, command in lists.items():
        assert await bot.set_my_commands([BotCommand(command, "does " + command)], scope=scope)
    await bot.set_my_commands([BotCommand("msaada", "Msaada")], language_code="sw")
    for scope, command in lists.items():
        assert [c.command for c in await bot.get_my_commands(scope=scope)] == [command]
    # getMyCommands answers exactly the list set for the scope and language, no fallback.
    assert await bot.get_my_commands(scope=BotCommandScopeAllGroupChats(), language_code="sw") == ()
    assert [c.command for c in await bot.get_my_commands(language_code="sw")] == ["msaada"]
    assert fake.commands({"type": "chat", "chat_id": GROUP}) == [{"command": "table", "description": "does table"}]

    await bot.delete_my_commands(scope=BotCommandScopeChat(GROUP))
    assert await bot.get_my_commands(scope=BotCommandScopeChat(GROUP)) == ()
    await bot.set_my_commands([], scope=BotCommandScopeAllGroupChats())  # an empty list deletes too
    assert await bot.get_my_commands(scope=BotCommandScopeAllGroupChats()) == ()


async def test_bad_commands_and_scopes_are_refused(env):
    fake, bot, *_ = env
    with pytest.raises(BadRequest, match="Bot_command_invalid"):
        await bot.set_my_commands([BotCommand("NewGame", "Start")])
    with pytest.raises(BadRequest, match="Bot_command_description_invalid"):
        await bot.set_my_commands([BotCommand("newgame", "")])
    with pytest.raises(BadRequest, match="Chat not found"):
        await bot.set_my_commands([BotCommand("newgame", "Start")], scope=BotCommandScopeChat(-42))
    with pytest.raises(BadRequest, match="User not found"):
        await bot.set_my_commands([BotCommand("newgame", "Start")], scope=BotCommandScopeChatMember(GROUP, 999))
    with pytest.raises(BadRequest, match="Invalid language code"):
        await bot.get_my_commands(language_code="english")


async def test_the_menu_a_user_sees_follows_telegrams_order(env):
    fake, bot, alice, bob = env
    await bot.set_my_commands([BotCommand("help", "Help")])
    assert [c["command"] for c in fake.menu_commands(bob, GROUP)] == ["help"]
    assert [c["command"] for c in fake.menu_commands(CAROL)] == ["help"]

    await bot.set_my_commands([BotCommand("msaada", "Msaada")], language_code="sw")
    await bot.set_my_commands([BotCommand("newgame", "New game")], scope=BotCommandScopeAllGroupChats())
    await bot.set_my_commands([BotCommand("settings", "Settings")], scope=BotCommandScopeAllChatAdministrators())
    await bot.set_my_commands([BotCommand("start", "Start")], scope=BotCommandScopeAllPrivateChats())
    assert [c["command"] for c in fake.menu_commands(bob, GROUP)] == ["newgame"]  # a scope beats a language
    assert [c["command"] for c in fake.menu_commands(alice, GROUP)] == ["settings"]  # Alice is the creator
    assert [c["command"] for c in fake.menu_commands(bob)] == ["start"]

    await bot.set_my_commands([BotCommand("anza", "Anza")], scope=BotCommandScopeAllPrivateChats(), language_code="sw")
    assert [c["command"] for c in fake.menu_commands(bob)] == ["anza"]  # same scope: the language first
    assert [c["command"] for c in fake.menu_commands(ALICE)] == ["start"]

    await bot.set_my_commands([BotCommand("hand", "Hand")], scope=BotCommandScopeChatMember(GROUP, BOB))
    assert [c["command"] for c in fake.menu_commands(bob, GROUP)] == ["hand"]
    assert [c["command"] for c in fake.menu_commands(alice, GROUP)] == ["settings"]
