"""A game's full guide (docs/games/<game>.md, in Swahili docs/games/sw/<game>.md) as Telegram messages.

Only the players' part is sent: a page ends at its first section for developers ("Engine ...",
"For developers ...", «Kwa wasanidi ...»), which stays in the repository. The Markdown we write
is turned into Telegram's HTML: headings and **bold** in bold, *emphasis* in italics, `code` as
code, list items as bullets, table rows as lines, and the source's wrapped lines joined again
(a phone wraps text itself). Messages are cut between blocks, under Telegram's 4,096 characters.
"""

from __future__ import annotations

import functools
import re
from html import escape
from pathlib import Path

# The guides of a source checkout; an installed bot is told where they are (KARATA_GUIDES_DIR).
SOURCE_GUIDES = Path(__file__).resolve().parents[2] / "docs" / "games"
DEVELOPER_SECTIONS = ("engine", "for developers", "kwa wasanidi")
MESSAGE_LIMIT = 3800  # characters of HTML; Telegram's limit of 4,096 counts the text without tags

HEADING = re.compile(r"(#{1,6})\s+(.*)")
BULLET = re.compile(r"(\s*)[-*]\s+(.*)")
NUMBERED = re.compile(r"(\s*)([0-9]{1,2})\.\s+(.*)")
TABLE_RULE = re.compile(r"\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?")
LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")


def guide_path(directory: Path, game: str, language: str) -> Path:
    return directory / "sw" / f"{game}.md" if language == "sw" else directory / f"{game}.md"


def pages(directory: Path | None, game: str, language: str) -> list[str]:
    """The guide's messages in this language; [] when its file is not there."""
    path = guide_path(directory or SOURCE_GUIDES, game, language)
    try:
        return _pages_of(str(path), path.stat().st_mtime)
    except OSError:
        return []


@functools.lru_cache(maxsize=32)
def _pages_of(path: str, _modified: float) -> list[str]:
    return split_messages(markdown_to_html(players_part(Path(path).read_text(encoding="utf-8"))))


def players_part(markdown: str) -> str:
    """The page up to its first section for developers."""
    kept = []
    for line in markdown.splitlines():
        heading = HEADING.fullmatch(line.strip())
        if heading and len(heading.group(1)) == 2 and heading.group(2).lower().startswith(DEVELOPER_SECTIONS):
            break
        kept.append(line)
    return "\n".join(kept)


def inline(text: str) -> str:
    """One line of Markdown as HTML: escaped, then `code`, **bold**, *italics*; links keep their words."""
    text = LINK.sub(r"\1", text)
    parts = re.split(r"(`[^`]*`)", text)
    out = []
    for part in parts:
        if part.startswith("`") and part.endswith("`") and len(part) >= 2:
            out.append("<code>" + escape(part[1:-1]) + "</code>")
            continue
        part = escape(part, quote=False)
        part = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", part)
        part = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"<i>\1</i>", part)
        out.append(part)
    return "".join(out)


def _table_row(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


# Kinds of block: a heading, a paragraph, and list items and table rows, which stand line by line.
HEAD, TEXT, ITEM, ROW = "head", "text", "item", "row"


def markdown_to_html(markdown: str) -> list[tuple[str, str]]:
    """The page's blocks as (kind, HTML)."""
    blocks: list[tuple[str, str]] = []
    current: list[str] = []  # the lines of the paragraph or list item being read
    kind, prefix = TEXT, ""
    marker_indent = 0  # where the current nested item's marker stands
    header_seen = False

    def flush() -> None:
        nonlocal current, kind, prefix
        if current:
            blocks.append((kind, prefix + inline(" ".join(current))))
        current, kind, prefix = [], TEXT, ""

    for raw in markdown.splitlines():
        line = raw.rstrip()
        stripped = line.strip()
        if not stripped:
            flush()
            header_seen = False
            continue
        if stripped.startswith("<!--") and stripped.endswith("-->"):
            continue  # a note to the guide's writers (tools/guide_options.py's markers)
        heading = HEADING.fullmatch(stripped)
        if heading:
            flush()
            blocks.append((HEAD, "<b>" + inline(heading.group(2)) + "</b>"))
            continue
        if stripped.startswith("|"):
            flush()
            if TABLE_RULE.fullmatch(stripped):
                continue
            cells = [inline(cell) for cell in _table_row(stripped)]
            if not header_seen:
                header_seen = True
                blocks.append((ROW, "<i>" + " · ".join(_plain(cell) for cell in cells) + "</i>"))
            else:
                first, rest = cells[0], [cell for cell in cells[1:] if cell]
                blocks.append((ROW, "• " + first + (": " + " · ".join(rest) if rest else "")))
            continue
        bullet = BULLET.fullmatch(line)
        numbered = NUMBERED.fullmatch(line)
        if bullet is not None:
            flush()
            marker_indent = len(bullet.group(1))
            kind, prefix, current = ITEM, ("    ◦ " if marker_indent >= 2 else "• "), [bullet.group(2)]
            continue
        if numbered is not None:
            flush()
            marker_indent = len(numbered.group(1))
            nested = "    " if marker_indent >= 2 else ""
            kind, prefix, current = ITEM, f"{nested}{numbered.group(2)}. ", [numbered.group(3)]
            continue
        indent = len(line) - len(line.lstrip())
        if kind == ITEM and prefix.strip() and prefix.startswith(" ") and indent <= marker_indent:
            # Back from a nested list to the item that holds it: the item's words go on.
            flush()
            kind, prefix = ITEM, "    "
        current.append(stripped)
    flush()
    return blocks


def _plain(html_text: str) -> str:
    return re.sub(r"</?(b|i|code)>", "", html_text)


def split_messages(blocks: list[tuple[str, str]], limit: int = MESSAGE_LIMIT) -> list[str]:
    """Blocks joined into messages under the limit: items line by line, other blocks a blank line
    apart, a heading right above what it heads (and in the same message)."""
    messages: list[list[tuple[str, str]]] = [[]]
    for block in blocks:
        if messages[-1] and len(_joined([*messages[-1], block])) > limit:
            carried = [messages[-1].pop()] if messages[-1][-1][0] == HEAD else []
            messages.append(carried)
        messages[-1].append(block)
    return [_joined(message) for message in messages if message]


def _joined(blocks: list[tuple[str, str]]) -> str:
    text, last = "", HEAD
    for kind, html_text in blocks:
        if text:
            text += "\n" if last == HEAD or (kind == last and kind in (ITEM, ROW)) else "\n\n"
        text, last = text + html_text, kind
    return text
