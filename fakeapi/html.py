"""Telegram's HTML formatting: text with tags in, plain text and entities out, errors worded like Telegram's.

The bot sends every formatted message with parse_mode HTML, so this is the only parser. It is strict
on purpose, to catch escaping bugs: an unescaped '<' in player-supplied text fails the request as it
does on Telegram, and so does an unescaped '&' (Telegram would show it literally; see strict_ampersand).
"""

from __future__ import annotations

import html
import re
from typing import Any

from fakeapi.errors import TelegramAPIError, bad
from fakeapi.text import utf16_len

_HTML_TAGS = {
    "a",
    "b",
    "strong",
    "i",
    "em",
    "u",
    "ins",
    "s",
    "strike",
    "del",
    "span",
    "tg-spoiler",
    "tg-emoji",
    "code",
    "pre",
    "blockquote",
}
_HTML_ENTITY_TYPES = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "span": "spoiler",
    "tg-spoiler": "spoiler",
    "code": "code",
    "pre": "pre",
    "blockquote": "blockquote",
    "a": "text_link",
    "tg-emoji": "custom_emoji",
}
_ENTITY_RE = re.compile(r"&(lt|gt|amp|quot|#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6});")


def _parse_err(msg: str) -> TelegramAPIError:
    return bad("can't parse entities: " + msg)


def parse_html(text: str, strict_ampersand: bool = True) -> tuple[str, list[dict]]:
    """Parse Telegram's HTML subset. Returns (plain text, entities) or raises TelegramAPIError.

    Error messages mirror tdlib's (``Unsupported start tag "x" at byte offset N`` etc.). Real
    Telegram keeps an unknown ``&...`` sequence literally; with ``strict_ampersand`` (default)
    the fake rejects any '&' that does not start ``&lt; &gt; &amp; &quot;`` or a numeric
    reference, so tests can prove that player text was escaped.
    """
    out: list[str] = []
    pos16 = 0  # current plain-text length in UTF-16 units
    entities: list[dict] = []
    stack: list[dict] = []
    i, n = 0, len(text)

    def byte_off(k: int) -> int:
        return len(text[:k].encode("utf-8"))

    def emit(s: str) -> None:
        nonlocal pos16
        out.append(s)
        pos16 += utf16_len(s)

    while i < n:
        c = text[i]
        if c == "&":
            m = _ENTITY_RE.match(text, i)
            if m:
                ent = m.group(1)
                if ent.startswith("#"):
                    try:
                        cp = int(ent[2:], 16) if ent[1:2] in "xX" else int(ent[1:])
                        emit(chr(cp))
                    except (ValueError, OverflowError):
                        raise _parse_err(f"Invalid character reference at byte offset {byte_off(i)}") from None
                else:
                    emit({"lt": "<", "gt": ">", "amp": "&", "quot": '"'}[ent])
                i = m.end()
                continue
            if strict_ampersand:
                raise _parse_err(f"Unescaped '&' at byte offset {byte_off(i)} (FakeBotAPI strict mode; use &amp;)")
            emit("&")
            i += 1
            continue
        if c != "<":
            j = i
            while j < n and text[j] not in "<&":
                j += 1
            emit(text[i:j])
            i = j
            continue
        begin = i
        i += 1
        if i < n and text[i] == "/":
            j = text.find(">", i)
            if j == -1:
                raise _parse_err(f"Unclosed end tag at byte offset {byte_off(begin)}")
            name = text[i + 1 : j].strip().lower()
            if not stack:
                raise _parse_err(f"Unexpected end tag at byte offset {byte_off(begin)}")
            top = stack.pop()
            if name != top["tag"]:
                raise _parse_err(
                    f'Unmatched end tag at byte offset {byte_off(begin)}, expected "</{top["tag"]}>", found "</{name}>"'
                )
            length = pos16 - top["offset"]
            if name == "code" and stack and stack[-1]["tag"] == "pre":
                pass  # <pre><code class="language-x"> is a single pre entity
            elif length > 0:
                ent = {"type": top["type"], "offset": top["offset"], "length": length}
                ent.update(top["extra"])
                entities.append(ent)
            i = j + 1
            continue
        j = i
        while j < n and not text[j].isspace() and text[j] != ">":
            j += 1
        if j >= n:
            raise _parse_err(f"Unclosed start tag at byte offset {byte_off(begin)}")
        name = text[i:j].lower()
        if name not in _HTML_TAGS:
            raise _parse_err(f'Unsupported start tag "{name}" at byte offset {byte_off(begin)}')
        attrs: dict[str, str] = {}
        k = j
        while True:
            while k < n and text[k].isspace():
                k += 1
            if k >= n:
                raise _parse_err(f"Unclosed start tag at byte offset {byte_off(begin)}")
            if text[k] == ">":
                k += 1
                break
            a0 = k
            while k < n and not text[k].isspace() and text[k] not in "=>":
                k += 1
            aname = text[a0:k].lower()
            if k >= n:
                raise _parse_err(f"Unclosed start tag at byte offset {byte_off(begin)}")
            value = ""
            if text[k] == "=":
                k += 1
                if k >= n:
                    raise _parse_err(f"Unclosed start tag at byte offset {byte_off(begin)}")
                if text[k] in "\"'":
                    q = text[k]
                    end = text.find(q, k + 1)
                    if end == -1:
                        raise _parse_err(f"Unclosed start tag at byte offset {byte_off(begin)}")
                    value = text[k + 1 : end]
                    k = end + 1
                else:
                    v0 = k
                    while k < n and not text[k].isspace() and text[k] != ">":
                        k += 1
                    value = text[v0:k]
            attrs[aname] = html.unescape(value)
        etype = _HTML_ENTITY_TYPES[name]
        extra: dict[str, Any] = {}
        if name == "span" and attrs.get("class") != "tg-spoiler":
            raise _parse_err('Tag "span" must have class "tg-spoiler"')
        if name == "a":
            href = attrs.get("href", "")
            if href.startswith("tg://user?id="):
                etype = "text_mention"
                extra["user"] = {"id": int(href.split("=", 1)[1] or 0), "is_bot": False, "first_name": ""}
            else:
                extra["url"] = href
        if name == "tg-emoji":
            if "emoji-id" not in attrs:
                raise _parse_err('Custom emoji entity must contain a tag "emoji-id"')
            extra["custom_emoji_id"] = attrs["emoji-id"]
        if name == "blockquote" and "expandable" in attrs:
            etype = "expandable_blockquote"
        if name == "code" and stack and stack[-1]["tag"] == "pre" and "class" in attrs:
            lang = attrs["class"]
            if lang.startswith("language-"):
                stack[-1]["extra"]["language"] = lang[len("language-") :]
        if name == "pre" and "language" in attrs:
            extra["language"] = attrs["language"]
        stack.append({"tag": name, "type": etype, "offset": pos16, "extra": extra})
        i = k
    if stack:
        raise _parse_err(f'Can\'t find end tag corresponding to start tag "{stack[-1]["tag"]}"')
    entities.sort(key=lambda e: (e["offset"], -e["length"]))
    return "".join(out), entities


def format_text(
    text: str, parse_mode: str | None, entities: list | None = None, strict_ampersand: bool = True
) -> tuple[str, list[dict]]:
    """(plain text, entities) of a message as sent with ``parse_mode`` or explicit ``entities``."""
    mode = (parse_mode or "").lower()
    if mode == "html":
        return parse_html(text, strict_ampersand)
    if mode in ("markdown", "markdownv2"):
        # Real Telegram accepts these; the fake does not parse them, so say so rather than guess.
        raise bad(f"unsupported parse_mode {parse_mode!r}: FakeBotAPI parses HTML only")
    if mode:
        raise bad("unsupported parse_mode")
    return text, list(entities or [])
