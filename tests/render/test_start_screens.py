"""What a newcomer reads: the welcome, /help in each kind of chat, and each game's summary."""

import pytest

from engine.registry import available_games
from fakeapi.html import parse_html
from handlers.chat import basics, howto, profile
from handlers.i18n import translator
from handlers.presentation.callback_data import HowTo, decode
from handlers.presentation.render.common import game_title

LANGUAGES = ["sw", "en"]


def shown(html_text):
    """What a phone shows of an HTML message (the fake parses it as strictly as Telegram)."""
    return parse_html(html_text)[0]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", available_games())
def test_every_game_has_a_summary_short_enough_to_read_at_once(game, language):
    _ = translator(language)
    text = shown(howto.summary_text(game, _))
    assert text.startswith("❓ " + _("How to play {game}", game=game_title(game, _)))
    assert len(howto.SUMMARIES[game]) >= 3, "enough to start playing"
    assert len(text) <= 1200


def test_a_summary_reads_in_the_readers_language():
    assert "turufu" in howto.summary_text("euchre3", translator("sw"))
    assert "trump" in howto.summary_text("euchre3", translator("en"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_welcome_names_every_game_and_offers_a_group_and_each_game(language):
    _ = translator(language)
    text = shown(basics.welcome_text(_))
    for game in available_games():
        assert game_title(game, _) in text
    rows = basics.welcome_markup(_, "karata_bot").inline_keyboard
    assert rows[0][0].url == "https://t.me/karata_bot?startgroup=karata"
    games = [decode(row[0].callback_data) for row in rows[1:]]
    assert games == [HowTo(game) for game in available_games()]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("private", [True, False])
def test_help_lists_every_command_of_its_kind_of_chat_and_no_other(language, private):
    _ = translator(language)
    text = shown(basics.help_text(_, private))
    listed = {line.split(" —")[0][1:] for line in text.splitlines() if " — " in line and line.startswith("/")}
    assert listed == {command.name for command in profile.commands_of(private)}
    for command in profile.commands_of(private):
        assert f"/{command.name} — {_(command.description)}" in text
    buttons = basics.help_markup(_).inline_keyboard
    assert [decode(row[0].callback_data) for row in buttons] == [HowTo(game) for game in available_games()]


def test_group_commands_and_private_commands_are_where_their_handlers_work():
    group = {command.name for command in profile.GROUP_COMMANDS}
    private = {command.name for command in profile.PRIVATE_COMMANDS}
    assert {"table", "kadi", "rules", "vote", "endsession"} <= group - private
    assert "start" in private - group
    # /newgame in the private chat opens a practice table (which /cancel closes there).
    assert {"hand", "guide", "language", "help", "newgame", "leave", "cancel"} <= group & private
    assert {command.name for command in profile.DEFAULT_COMMANDS} <= group & private
