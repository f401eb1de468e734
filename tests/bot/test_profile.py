"""The bot's name, descriptions and menus fit Telegram's limits in both languages."""

import pytest

from engine.registry import available_games
from handlers.chat import profile
from handlers.i18n import translator
from handlers.presentation.render.common import game_title


@pytest.mark.parametrize("language", ["sw", "en"])
def test_name_and_descriptions_fit_telegrams_limits(language):
    _ = translator(language)
    assert 1 <= len(profile.bot_name(_)) <= 64
    assert len(profile.description(_)) <= 512
    assert len(profile.short_description(_)) <= 120
    for game in available_games():
        assert game_title(game, _) in profile.description(_)


def test_the_two_languages_read_differently():
    sw, en = translator("sw"), translator("en")
    assert profile.description(sw) != profile.description(en)
    assert profile.short_description(sw) != profile.short_description(en)


def test_every_menu_is_set_in_the_language_it_is_for():
    menus = profile.wanted_menus("sw")
    scopes = [(scope.type, code) for scope, code, _commands in menus]
    assert scopes == [
        ("all_group_chats", None),
        ("all_private_chats", None),
        ("default", None),
        ("all_private_chats", "en"),
        ("default", "en"),
    ]
    for _scope, _code, commands in menus:
        assert all(1 <= len(command.description) <= 256 for command in commands)
    group = dict((command.command, command.description) for command in menus[0][2])
    assert group["newgame"] == translator("sw")("Open a card table in this group")
    english = dict((command.command, command.description) for command in menus[3][2])
    assert english["start"] == "Welcome, and how to play each game"
