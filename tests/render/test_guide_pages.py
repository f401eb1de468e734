"""A game's full guide reaches a phone as a few readable messages, in Swahili and in English."""

import re

import pytest

from engine.registry import available_games
from fakeapi.html import parse_html
from handlers.presentation import guide_pages
from tests.bot.test_terms import NOT_USED

LANGUAGES = ["sw", "en"]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", available_games())
def test_every_game_has_a_guide_in_messages_telegram_accepts(game, language):
    pages = guide_pages.pages(None, game, language)
    assert pages, f"docs/games/{'sw/' if language == 'sw' else ''}{game}.md"
    for page in pages:
        text = parse_html(page)[0]
        assert 0 < len(text.encode("utf-16-le")) // 2 <= 4096
    whole = "\n".join(pages)
    assert "benchmark" not in whole.lower() and "legal_actions" not in whole, "players' part only"


@pytest.mark.parametrize("game", available_games())
def test_the_swahili_guides_use_the_catalogs_words(game):
    text = guide_pages.guide_path(guide_pages.SOURCE_GUIDES, game, "sw").read_text(encoding="utf-8")
    for word, instead in NOT_USED.items():
        assert not re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text, re.IGNORECASE), f"«{word}»: use «{instead}»"
    draws = set(re.findall(r"\w*(chot|vut)[ae]\b", text.lower()))
    assert draws <= {"chot"}, draws  # one verb for drawing in every game


def test_wrapped_lines_are_joined_and_lists_tables_and_emphasis_become_telegram_html():
    markdown = """# Title

A paragraph written
over two lines with **bold**, *italics* and `code_name` & <more>.

1. **The deal.** First item
   goes on.
2. Second item:
   - nested one;
   - nested two.
   Back in the second item.

| option | default |
|---|---|
| `target` | 7 |
"""
    (page,) = guide_pages.split_messages(guide_pages.markdown_to_html(markdown))
    assert page.splitlines() == [
        "<b>Title</b>",
        "A paragraph written over two lines with <b>bold</b>, <i>italics</i> and <code>code_name</code> "
        "&amp; &lt;more&gt;.",
        "",
        "1. <b>The deal.</b> First item goes on.",
        "2. Second item:",
        "    ◦ nested one;",
        "    ◦ nested two.",
        "    Back in the second item.",
        "",
        "<i>option · default</i>",
        "• <code>target</code>: 7",
    ]


def test_a_page_ends_before_its_developer_sections():
    markdown = "# Game\n\nPlay well.\n\n## Engine decisions\n\n- `legal_actions` lists ...\n"
    assert guide_pages.players_part(markdown).strip() == "# Game\n\nPlay well."


def test_a_long_guide_is_cut_between_sections_with_each_heading_above_its_text():
    blocks = [
        (guide_pages.HEAD, "<b>One</b>"),
        (guide_pages.TEXT, "a" * 60),
        (guide_pages.HEAD, "<b>Two</b>"),
        (guide_pages.TEXT, "b" * 60),
    ]
    assert guide_pages.split_messages(blocks, limit=100) == ["<b>One</b>\n" + "a" * 60, "<b>Two</b>\n" + "b" * 60]
