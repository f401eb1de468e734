"""What a player or a reader of the repository sees stands on its own: the guide pages the bot
sends, every file of the repository and every text of the catalog point to nothing outside the
repository (no `../shared`, no link that leaves it) and name no internal work items (issue
numbers); every rule number the code and tests cite («KAD-A2», «P13») is written in the
repository, in docs/games/rules/."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from engine.registry import available_games
from handlers.presentation import guide_pages
from tests.bot.test_catalog import swahili

ROOT = Path(__file__).resolve().parents[2]
OUTSIDE = re.compile(r"\.\./(shared|seeds|rules)\b|(?<![\w/.])shared/(rules|reviews|GLOSSARY|seeds)")
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


TEXT_FILES = (".py", ".md", ".toml", ".yaml", ".yml", ".js", ".html", ".css", ".cfg", ".txt", "Dockerfile", "Caddyfile")


def tracked_texts() -> list[Path]:
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True)
    return [ROOT / line for line in listed.stdout.splitlines() if line.endswith(TEXT_FILES)]


def test_no_file_of_the_repository_points_outside_it():
    wrong = []
    for path in tracked_texts():
        if path == Path(__file__):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        wrong += [f"{path.relative_to(ROOT)}: {found.group(0)}" for found in OUTSIDE.finditer(text)]
    assert not wrong, wrong


# A game's rule numbers: its letter and a number («K3.1a», «P13»), and its resolutions («KAD-A2»).
RULE_LETTERS = {"kadi": "K", "pitch": "P", "euchre3": "E", "three_thirteen": "T", "lopti": "L"}
RESOLUTION = re.compile(r"\b(?:KAD|PIT|EU3|T13|LOP)-A\d+\b")


def defined_numbers() -> set[str]:
    found = set()
    for game in RULE_LETTERS:
        text = (ROOT / "docs" / "games" / "rules" / f"{game}.md").read_text(encoding="utf-8")
        found.update(re.findall(r"\b[A-Z0-9]+-A\d+\b|\b[A-Z][0-9]+(?:\.[0-9]+[A-Za-z]?)?\b", text))
    return found


def written(number: str, defined: set[str]) -> bool:
    """«L18.1» is written as the question and answer «L18.1Q», «L18.1A»; «K3» as its rules «K3.1a»."""
    return number in defined or any(
        name.startswith(number) and not name[len(number)].isdigit() for name in defined if len(name) > len(number)
    )


def test_every_rule_number_the_code_cites_is_written_in_the_repository():
    defined = defined_numbers()
    missing = []
    for path in tracked_texts():
        if "docs/games/rules" in str(path):
            continue
        text = re.sub(r"noqa: [\w, ]+", "", path.read_text(encoding="utf-8", errors="replace"))
        cited = set(RESOLUTION.findall(text))
        for game, letter in RULE_LETTERS.items():
            # Single-letter numbers are read only in the game's own files («E402» is a linter's code).
            if game in path.name or f"/{game}/" in str(path):
                cited.update(re.findall(rf"\b{letter}[0-9]+(?:\.[0-9]+)?\b", text))
        missing += [f"{path.relative_to(ROOT)}: {number}" for number in sorted(cited) if not written(number, defined)]
    assert not missing, missing
