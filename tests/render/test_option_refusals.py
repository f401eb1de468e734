"""A refused /newgame option names what it may be, for every option of every game and the bot's
own words (timer, bots, level, standin), in both languages; an unknown name lists the game's."""

from __future__ import annotations

import pytest

from engine.core.options import OptionsError, parse_options
from engine.registry import available_games, get_game
from handlers.i18n import translator
from handlers.presentation.render.options import TABLE_WORDS, refused_word

EN, SW = translator("en"), translator("sw")
# A value no option of any game accepts.
BAD = "nothing"


@pytest.mark.parametrize("game", available_games())
def test_every_option_refused_names_its_values(game):
    for option, field in get_game(game).Options.model_fields.items():
        with pytest.raises(OptionsError):
            parse_options(get_game(game).Options, {option: BAD})
        english = refused_word(game, f"{option}={BAD}", {option: BAD}, EN)
        swahili = refused_word(game, f"{option}={BAD}", {option: BAD}, SW)
        assert english.startswith(f"I cannot use {option}={BAD}. {option} can be "), english
        assert swahili.startswith(f"Siwezi kutumia {option}={BAD}. {option} inaweza kuwa "), swahili
        # The default is among the values named.
        values, default = english.split(" can be ")[1].rstrip("."), field.default
        if "-" in values:
            low, high = (int(number) for number in values.split("-"))
            assert low <= default <= high, (english, default)
        elif values.endswith(" or more"):
            assert default >= int(values.split(" ")[0]), (english, default)
        else:
            shown = "true" if default is True else "false" if default is False else str(default)
            assert shown in values.replace(" or ", ", ").split(", "), (english, default)


def test_the_ranges_read_as_players_type_them():
    assert refused_word("kadi", "hand_size=99", {}, EN) == "I cannot use hand_size=99. hand_size can be 5-8."
    assert refused_word("kadi", "points_limit=0", {}, EN).endswith("points_limit can be 1 or more.")
    assert refused_word("pitch", "target=8", {}, EN).endswith("target can be 7, 11, 15 or 21.")
    assert refused_word("pitch", "target=8", {}, SW).endswith("target inaweza kuwa 7, 11, 15 au 21.")
    assert refused_word("lopti", "ten_on_seven=yes", {}, EN).endswith("ten_on_seven can be true or false.")
    assert refused_word("kadi", "timer=forever", {}, EN).endswith("timer can be 0-3600.")
    assert refused_word("kadi", "level=hard", {}, EN).endswith("level can be easy or strong.")
    assert set(TABLE_WORDS) == {"timer", "bots", "level", "standin"}


def test_an_unknown_option_lists_the_games_options_by_the_games_name():
    text = refused_word("three_thirteen", "jokerz=2", {}, EN)
    assert text.startswith("I cannot use jokerz=2. Three Thirteen has no option jokerz. Its options: wild_only_melds, ")
    assert "timer, bots, level, standin." in text
    assert "Tatu–Kumi na Tatu hauna chaguo jokerz" in refused_word("three_thirteen", "jokerz=2", {}, SW)
