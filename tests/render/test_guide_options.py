"""Every guide lists its game's options with their values and defaults, written from the game's
own option table (tools/guide_options.py), so a guide cannot drift from the engine; and the
buttons a guide tells players to press carry the words the buttons show, in the guide's language."""

from __future__ import annotations

import re

import pytest

from engine.registry import available_games, get_game
from handlers.presentation.guide_pages import SOURCE_GUIDES, guide_path, pages
from tests.bot.test_catalog import swahili
from tools.guide_options import BEGIN, END, main, options_section, updated

GUIDES = [(game, language) for game in available_games() for language in ("en", "sw")]


@pytest.mark.parametrize("game, language", GUIDES)
def test_a_guide_lists_the_options_its_game_has_now(game, language):
    text = guide_path(SOURCE_GUIDES, game, language).read_text(encoding="utf-8")
    section = options_section(game, language)
    assert section in text, f"run `python tools/guide_options.py`: the {language} {game} guide is stale"
    for option, field in get_game(game).Options.model_fields.items():
        assert f"| `{option}` |" in section and f"`{str(field.default).lower()}`" in section.lower()


def test_a_stale_guide_is_found_and_rewritten(tmp_path):
    text = guide_path(SOURCE_GUIDES, "kadi", "en").read_text(encoding="utf-8")
    stale = text.replace("| `hand_size` | 5-8 | `7` |", "| `hand_size` | 5-9 | `6` |")
    assert stale != text and options_section("kadi", "en") not in stale
    assert updated(stale, options_section("kadi", "en"), tmp_path) == text
    assert main(["--check"]) == 0, "every guide in the checkout is current"


def test_the_player_range_that_depends_on_an_option_is_said():
    kadi = options_section("kadi", "en")
    assert "Players: 2-6; with `hand_size` 5 or 6: 2-7." in kadi
    assert "Wachezaji: 2-7; ikiwa `partnerships` ni true: 4." in options_section("pitch", "sw")


def test_the_markers_never_reach_a_player():
    for game, language in GUIDES:
        sent = "\n".join(pages(None, game, language))
        assert BEGIN not in sent and END not in sent and "&lt;!--" not in sent
        assert "hand_size" in "\n".join(pages(None, "kadi", language))


def labels(language: str) -> set[str]:
    """Every text the catalog can show in this language, as a button shows it."""
    found = set()
    for message in swahili():
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        found.update(ids if language == "en" else strings)
    return {label.replace("{number}", "N").lower() for label in found if label}


PRESS = {
    "en": re.compile(r"[Pp]ress(?:es)? \*{1,2}([^*]+)\*{1,2}"),
    "sw": re.compile(r"[Bb]onyeza \*{1,2}([^*]+)\*{1,2}"),
}


@pytest.mark.parametrize("game, language", GUIDES)
def test_a_button_a_guide_names_reads_as_the_button_does(game, language):
    text = " ".join(guide_path(SOURCE_GUIDES, game, language).read_text(encoding="utf-8").split())
    known = labels(language)
    for named in PRESS[language].findall(text):
        label = re.sub(r"^[^\w“]+\s*", "", named).strip()  # the button's emoji, if the guide shows it
        assert label.lower() in known, f"{game} ({language}) says to press «{named}», which no button reads"
