"""What a player or a reader of the repository sees stands on its own: the guide pages the bot
sends, every Markdown file of the repository and every text of the catalog point to nothing
outside the repository (no `../shared`, no link that leaves it) and name no internal work items
(issue numbers)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from engine.registry import available_games
from handlers import guide_pages
from tests.bot.test_catalog import swahili

ROOT = Path(__file__).resolve().parents[2]
OUTSIDE = re.compile(r"\.\./shared|(?<![\w/.])shared/(rules|reviews|GLOSSARY)")
ISSUE = re.compile(r"\bissues? #?\d+|\bissue's\b|(?<![\w&])#\d{1,4}\b", re.IGNORECASE)
LINK = re.compile(r"\]\(([^)#\s]+)")


def markdown_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "*.md"], cwd=ROOT, capture_output=True, text=True, check=True)
    return [ROOT / line for line in listed.stdout.splitlines() if line]


@pytest.mark.parametrize("language", ["en", "sw"])
@pytest.mark.parametrize("game", available_games())
def test_a_guide_the_bot_sends_points_nowhere_outside(game, language):
    for page in guide_pages.pages(None, game, language):
        assert not OUTSIDE.search(page) and "../" not in page, page
        assert not ISSUE.search(page), ISSUE.search(page)


def test_no_markdown_file_points_outside_the_repository_or_names_an_issue():
    files = markdown_files()
    assert ROOT / "README.md" in files and ROOT / "docs" / "OPERATIONS.md" in files
    wrong = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(ROOT)
        wrong += [f"{name}: {found.group(0)}" for found in OUTSIDE.finditer(text)]
        wrong += [f"{name}: {found.group(0)}" for found in ISSUE.finditer(text)]
        for target in LINK.findall(text):
            if re.match(r"[a-z]+:", target):
                continue  # a web address
            resolved = (path.parent / target).resolve()
            if not resolved.is_relative_to(ROOT) or not resolved.exists():
                wrong.append(f"{name}: link {target}")
    assert not wrong, wrong


def test_no_text_of_the_bot_names_an_issue_or_a_path_outside():
    wrong = []
    for message in swahili():
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in (*ids, *strings):
            if text and (ISSUE.search(text) or OUTSIDE.search(text) or "../" in text):
                wrong.append(text)
    assert not wrong, wrong
