"""A fake Telegram Bot API server for tests and the offline demo.

It speaks the Bot API over real HTTP on 127.0.0.1 (aiohttp.web, random free port), so a real
``telegram.Bot(token, base_url=fake.base_url)`` (or a whole python-telegram-bot Application)
can talk to it unchanged.  The test side drives simulated users through async helpers
(:meth:`FakeBotAPI.send_text`, :meth:`FakeBotAPI.press`, ...) and inspects what the bot did
(:meth:`FakeBotAPI.messages`, :attr:`FakeBotAPI.calls`, :meth:`FakeBotAPI.visible_text`, ...).

This module deliberately imports nothing from the rest of the project.

Parameter encoding (python-telegram-bot 22.x, ``HTTPXRequest``): every request is a POST with an
``application/x-www-form-urlencoded`` body (``multipart/form-data`` when files are uploaded).
String values are sent as-is, everything else is ``json.dumps``-ed: ints arrive as ``"123"``,
bools as ``"true"``, ``TelegramObject``s and lists (reply_markup, entities, allowed_updates,
commands, scope, options, reply_parameters, link_preview_options...) as JSON strings, and
``timedelta``s as integer seconds.  ``None`` values are dropped.  The fake therefore decodes
known JSON fields, coerces known integer fields and ``"true"``/``"false"`` strings, and leaves
free-text fields (text, data, question, ...) untouched.
"""

from __future__ import annotations

import asyncio
import html
import json
import re
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from aiohttp import web

__all__ = [
    "FakeBotAPI",
    "FakeUser",
    "FakeChat",
    "MessageRecord",
    "TelegramAPIError",
    "parse_html",
    "utf16_len",
]

BOT_COMMAND_RE = re.compile(r"(?<![\w/])/[A-Za-z0-9_]{1,64}(?:@[A-Za-z0-9_]{3,64})?")

# Fields that PTB (and other clients) JSON-encode inside form bodies.
JSON_FIELDS = {
    "reply_markup", "entities", "caption_entities", "allowed_updates", "commands", "scope",
    "link_preview_options", "reply_parameters", "options", "question_entities",
    "explanation_entities", "media", "results", "permissions", "message_ids", "reaction",
    "correct_option_ids", "description_entities", "country_codes", "rights",
}
# Free-text fields: never coerced or JSON-decoded.
TEXT_FIELDS = {
    "text", "caption", "question", "explanation", "title", "description", "data", "url",
    "callback_data", "query", "emoji", "name", "short_description", "parse_mode",
    "question_parse_mode", "explanation_parse_mode", "callback_query_id", "inline_message_id",
    "language_code", "secret_token", "action", "ip_address", "custom_title", "business_connection_id",
}
INT_FIELDS = {
    "chat_id", "message_id", "from_chat_id", "user_id", "message_thread_id", "offset", "limit",
    "timeout", "cache_time", "reply_to_message_id", "open_period", "close_date", "until_date",
    "max_connections", "correct_option_id", "direct_messages_topic_id", "sender_chat_id",
}
DEFAULT_UPDATE_TYPES = {
    "message", "edited_message", "channel_post", "edited_channel_post", "business_connection",
    "business_message", "edited_business_message", "deleted_business_messages",
    "inline_query", "chosen_inline_result", "callback_query", "shipping_query",
    "pre_checkout_query", "purchased_paid_media", "poll", "poll_answer", "my_chat_member",
    "chat_join_request", "chat_boost", "removed_chat_boost",
}  # i.e. everything except chat_member, message_reaction, message_reaction_count

# Telegram's real error strings.
E_NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are "
    "exactly the same as a current content and reply markup of the message"
)
E_CANT_INITIATE = "Forbidden: bot can't initiate conversation with a user"
E_BLOCKED = "Forbidden: bot was blocked by the user"
E_KICKED = "Forbidden: bot was kicked from the supergroup chat"
E_NOT_MEMBER = "Forbidden: bot is not a member of the supergroup chat"
E_CHAT_NOT_FOUND = "Bad Request: chat not found"
E_EDIT_NOT_FOUND = "Bad Request: message to edit not found"
E_DELETE_NOT_FOUND = "Bad Request: message to delete not found"
E_CANT_DELETE = "Bad Request: message can't be deleted"
E_CANT_EDIT = "Bad Request: message can't be edited"
E_NO_TEXT = "Bad Request: there is no text in the message to edit"
E_TOO_LONG = "Bad Request: message is too long"
E_EMPTY = "Bad Request: message text is empty"
E_BUTTON_DATA = "Bad Request: BUTTON_DATA_INVALID"
E_BUTTON_URL = "Bad Request: BUTTON_URL_INVALID"
E_QUERY_OLD = (
    "Bad Request: query is too old and response timeout expired or query ID is invalid"
)
E_REPLY_NOT_FOUND = "Bad Request: message to be replied not found"
E_THREAD_NOT_FOUND = "Bad Request: message thread not found"
E_USER_NOT_FOUND = "Bad Request: user not found"
E_POLL_STOP_NOT_FOUND = "Bad Request: message with poll to stop not found"
E_POLL_CLOSED = "Bad Request: poll has already been closed"
E_PIN_RIGHTS = "Bad Request: not enough rights to manage pinned messages in the chat"
E_PIN_NOT_FOUND = "Bad Request: message to pin not found"
E_UNPIN_NOT_FOUND = "Bad Request: message to unpin not found"
E_WEBHOOK_CONFLICT = (
    "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to "
    "delete the webhook first"
)
E_POLL_CONFLICT = (
    "Conflict: terminated by other getUpdates request; make sure that only one bot instance "
    "is running"
)

MAX_TEXT = 4096
MAX_CALLBACK_DATA = 64


def utf16_len(s: str) -> int:
    """Length of ``s`` in UTF-16 code units (Telegram's unit for offsets and limits)."""
    return len(s.encode("utf-16-le")) // 2


class TelegramAPIError(Exception):
    """An error response of the fake API: ``{"ok": false, "error_code", "description"}``."""

    def __init__(self, code: int, description: str, parameters: dict | None = None):
        super().__init__(description)
        self.code = code
        self.description = description
        self.parameters = parameters

    def to_json(self) -> dict:
        out: dict[str, Any] = {"ok": False, "error_code": self.code, "description": self.description}
        if self.parameters:
            out["parameters"] = self.parameters
        return out


def _bad(desc: str) -> TelegramAPIError:
    return TelegramAPIError(400, desc if desc.startswith("Bad Request") else "Bad Request: " + desc)


def _forbidden(desc: str) -> TelegramAPIError:
    return TelegramAPIError(403, desc)


# --------------------------------------------------------------------------------------------
# Entity parsing (Telegram's HTML subset, tdlib-like error messages; simplified MarkdownV2)
# --------------------------------------------------------------------------------------------

_HTML_TAGS = {
    "a", "b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "span", "tg-spoiler",
    "tg-emoji", "code", "pre", "blockquote",
}
_HTML_ENTITY_TYPES = {
    "b": "bold", "strong": "bold", "i": "italic", "em": "italic", "u": "underline",
    "ins": "underline", "s": "strikethrough", "strike": "strikethrough", "del": "strikethrough",
    "span": "spoiler", "tg-spoiler": "spoiler", "code": "code", "pre": "pre",
    "blockquote": "blockquote", "a": "text_link", "tg-emoji": "custom_emoji",
}
_ENTITY_RE = re.compile(r"&(lt|gt|amp|quot|#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6});")


def _parse_err(msg: str) -> TelegramAPIError:
    return _bad("can't parse entities: " + msg)


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
                        raise _parse_err(f"Invalid character reference at byte offset {byte_off(i)}")
                else:
                    emit({"lt": "<", "gt": ">", "amp": "&", "quot": '"'}[ent])
                i = m.end()
                continue
            if strict_ampersand:
                raise _parse_err(
                    f"Unescaped '&' at byte offset {byte_off(i)} (FakeBotAPI strict mode; "
                    "use &amp;)"
                )
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
            name = text[i + 1:j].strip().lower()
            if not stack:
                raise _parse_err(f"Unexpected end tag at byte offset {byte_off(begin)}")
            top = stack.pop()
            if name != top["tag"]:
                raise _parse_err(
                    f'Unmatched end tag at byte offset {byte_off(begin)}, expected '
                    f'"</{top["tag"]}>", found "</{name}>"'
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
                    value = text[k + 1:end]
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
                extra["user"] = {"id": int(href.split("=", 1)[1] or 0), "is_bot": False,
                                 "first_name": ""}
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
                stack[-1]["extra"]["language"] = lang[len("language-"):]
        if name == "pre" and "language" in attrs:
            extra["language"] = attrs["language"]
        stack.append({"tag": name, "type": etype, "offset": pos16, "extra": extra})
        i = k
    if stack:
        raise _parse_err(
            f'Can\'t find end tag corresponding to start tag "{stack[-1]["tag"]}"'
        )
    entities.sort(key=lambda e: (e["offset"], -e["length"]))
    return "".join(out), entities


_MDV2_RESERVED = set("_*[]()~`>#+-=|{}.!")
_MDV2_NAMES = {"*": "Bold", "_": "Italic", "__": "Underline", "~": "Strikethrough",
               "||": "Spoiler"}
_MDV2_TYPES = {"*": "bold", "_": "italic", "__": "underline", "~": "strikethrough",
               "||": "spoiler"}


def parse_markdown_v2(text: str) -> tuple[str, list[dict]]:
    """Simplified MarkdownV2 parser: enough to catch unescaped reserved characters and
    unbalanced markers with Telegram's error wording."""
    out: list[str] = []
    pos16 = 0
    entities: list[dict] = []
    stack: list[tuple[str, int, int]] = []  # (marker, offset16, byte offset)
    i, n = 0, len(text)

    def boff(k: int) -> int:
        return len(text[:k].encode("utf-8"))

    def emit(s: str) -> None:
        nonlocal pos16
        out.append(s)
        pos16 += utf16_len(s)

    link_stack: list[tuple[int, int]] = []
    while i < n:
        c = text[i]
        if c == "\\":
            if i + 1 < n and ord(text[i + 1]) < 128:
                emit(text[i + 1])
                i += 2
                continue
            emit(c)
            i += 1
            continue
        if c == "`":
            fence = text.startswith("```", i)
            marker = "```" if fence else "`"
            j = i + len(marker)
            buf = []
            while j < n and not text.startswith(marker, j):
                if text[j] == "\\" and j + 1 < n and text[j + 1] in "`\\":
                    buf.append(text[j + 1])
                    j += 2
                    continue
                buf.append(text[j])
                j += 1
            if j >= n:
                kind = "Pre" if fence else "Code"
                raise _parse_err(f"Can't find end of {kind} entity at byte offset {boff(i)}")
            body = "".join(buf)
            extra: dict[str, Any] = {}
            if fence and "\n" in body:
                first, rest = body.split("\n", 1)
                if first and " " not in first:
                    extra["language"] = first
                    body = rest
            start = pos16
            emit(body)
            if pos16 > start:
                entities.append({"type": "pre" if fence else "code", "offset": start,
                                 "length": pos16 - start, **extra})
            i = j + len(marker)
            continue
        marker = None
        if text.startswith("||", i):
            marker = "||"
        elif text.startswith("__", i):
            marker = "__"
        elif c in "*_~":
            marker = c
        if marker:
            if stack and stack[-1][0] == marker:
                m, off, _ = stack.pop()
                if pos16 > off:
                    entities.append({"type": _MDV2_TYPES[m], "offset": off, "length": pos16 - off})
            else:
                stack.append((marker, pos16, boff(i)))
            i += len(marker)
            continue
        if c == "[":
            link_stack.append((pos16, boff(i)))
            i += 1
            continue
        if c == "]" and link_stack:
            off, b = link_stack.pop()
            if not text.startswith("(", i + 1):
                raise _parse_err(f"Can't find end of a URL at byte offset {boff(i)}")
            j = i + 2
            url = []
            while j < n and text[j] != ")":
                if text[j] == "\\" and j + 1 < n:
                    url.append(text[j + 1])
                    j += 2
                    continue
                url.append(text[j])
                j += 1
            if j >= n:
                raise _parse_err(f"Can't find end of a URL at byte offset {boff(i)}")
            if pos16 > off:
                entities.append({"type": "text_link", "offset": off, "length": pos16 - off,
                                 "url": "".join(url)})
            i = j + 1
            continue
        if c == ">" and (i == 0 or text[i - 1] == "\n"):
            i += 1  # blockquote marker (entity not tracked)
            continue
        if c in _MDV2_RESERVED:
            raise _parse_err(
                f"Character '{c}' is reserved and must be escaped with the preceding '\\'"
            )
        emit(c)
        i += 1
    if link_stack:
        raise _parse_err(f"Can't find end of TextUrl entity at byte offset {link_stack[-1][1]}")
    if stack:
        m, _, b = stack[-1]
        raise _parse_err(f"Can't find end of {_MDV2_NAMES[m]} entity at byte offset {b}")
    entities.sort(key=lambda e: (e["offset"], -e["length"]))
    return "".join(out), entities


def parse_markdown(text: str) -> tuple[str, list[dict]]:
    """Legacy Markdown: *bold* _italic_ `code` ```pre``` [text](url)."""
    out: list[str] = []
    entities: list[dict] = []
    pos16 = 0
    i, n = 0, len(text)
    kinds = {"*": "bold", "_": "italic", "`": "code"}
    while i < n:
        c = text[i]
        if c == "\\" and i + 1 < n and text[i + 1] in "*_`[":
            out.append(text[i + 1])
            pos16 += 1
            i += 2
            continue
        if text.startswith("```", i) or c in kinds:
            marker = "```" if text.startswith("```", i) else c
            j = text.find(marker, i + len(marker))
            if j == -1:
                raise _parse_err(
                    "Can't find end of the entity starting at byte offset "
                    f"{len(text[:i].encode())}"
                )
            body = text[i + len(marker):j]
            if body:
                entities.append({"type": "pre" if marker == "```" else kinds[marker],
                                 "offset": pos16, "length": utf16_len(body)})
            out.append(body)
            pos16 += utf16_len(body)
            i = j + len(marker)
            continue
        if c == "[":
            m = re.match(r"\[([^\]]*)\]\(([^)]*)\)", text[i:])
            if m:
                body = m.group(1)
                if body:
                    entities.append({"type": "text_link", "offset": pos16,
                                     "length": utf16_len(body), "url": m.group(2)})
                out.append(body)
                pos16 += utf16_len(body)
                i += m.end()
                continue
        out.append(c)
        pos16 += utf16_len(c)
        i += 1
    return "".join(out), entities


def format_text(text: str, parse_mode: str | None, entities: list | None = None,
                strict_ampersand: bool = True) -> tuple[str, list[dict]]:
    mode = (parse_mode or "").lower()
    if mode == "html":
        return parse_html(text, strict_ampersand)
    if mode == "markdownv2":
        return parse_markdown_v2(text)
    if mode == "markdown":
        return parse_markdown(text)
    if mode:
        raise _bad("unsupported parse_mode")
    return text, list(entities or [])


def command_entities(text: str) -> list[dict]:
    """bot_command entities as Telegram's clients produce them (UTF-16 offsets)."""
    ents = []
    for m in BOT_COMMAND_RE.finditer(text):
        ents.append({"type": "bot_command", "offset": utf16_len(text[:m.start()]),
                     "length": utf16_len(m.group(0))})
    return ents


# --------------------------------------------------------------------------------------------
# State objects
# --------------------------------------------------------------------------------------------


@dataclass
class FakeUser:
    id: int
    first_name: str
    language_code: str | None = "en"
    username: str | None = None
    last_name: str | None = None
    is_bot: bool = False
    started: bool = False
    blocked: bool = False

    def to_api(self) -> dict:
        d: dict[str, Any] = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        if self.last_name:
            d["last_name"] = self.last_name
        if self.username:
            d["username"] = self.username
        if self.language_code:
            d["language_code"] = self.language_code
        return d

    def private_chat(self) -> dict:
        d: dict[str, Any] = {"id": self.id, "type": "private", "first_name": self.first_name}
        if self.last_name:
            d["last_name"] = self.last_name
        if self.username:
            d["username"] = self.username
        return d


@dataclass
class FakeChat:
    id: int
    title: str
    type: str = "supergroup"
    members: dict[int, str] = field(default_factory=dict)  # user_id -> status
    is_forum: bool = False
    username: str | None = None
    topics: dict[int, str] = field(default_factory=dict)  # message_thread_id -> name
    pinned: list[int] = field(default_factory=list)

    def to_api(self) -> dict:
        d: dict[str, Any] = {"id": self.id, "type": self.type, "title": self.title}
        if self.username:
            d["username"] = self.username
        if self.is_forum:
            d["is_forum"] = True
        return d


@dataclass
class MessageRecord:
    """One message in a chat, as the fake remembers it.

    ``text`` is the text exactly as sent (e.g. with HTML tags); ``plain`` is what clients show
    (entities parsed, HTML entities unescaped).  ``versions`` holds every version (original
    first) as dicts with text/plain/parse_mode/entities/reply_markup.
    """

    chat_id: int
    message_id: int
    from_bot: bool
    sender_id: int
    date: int
    text: str | None
    parse_mode: str | None
    plain: str | None
    entities: list[dict]
    reply_markup: dict | None
    thread_id: int | None = None
    reply_to_message_id: int | None = None
    poll_id: str | None = None
    deleted: bool = False
    edit_count: int = 0
    edit_date: int | None = None
    pinned: bool = False
    service: dict | None = None
    versions: list[dict] = field(default_factory=list)

    @property
    def history(self) -> list[tuple[str | None, dict | None]]:
        """Every (text as sent, reply_markup) version, original first."""
        return [(v["text"], v["reply_markup"]) for v in self.versions]

    @property
    def plain_history(self) -> list[str | None]:
        return [v["plain"] for v in self.versions]

    @property
    def buttons(self) -> list[list[tuple[str, str | None]]]:
        return markup_buttons(self.reply_markup)

    def _snapshot(self) -> None:
        self.versions.append({
            "text": self.text, "plain": self.plain, "parse_mode": self.parse_mode,
            "entities": list(self.entities),
            "reply_markup": json.loads(json.dumps(self.reply_markup))
            if self.reply_markup is not None else None,
        })


def markup_buttons(markup: dict | None) -> list[list[tuple[str, str | None]]]:
    """Rows of (text, callback_data or url or None) for an inline keyboard (or the text of a
    reply keyboard's buttons)."""
    if not markup:
        return []
    rows = markup.get("inline_keyboard") or markup.get("keyboard") or []
    out = []
    for row in rows:
        r = []
        for b in row:
            if isinstance(b, str):
                r.append((b, None))
                continue
            r.append((b.get("text", ""), b.get("callback_data", b.get("url"))))
        out.append(r)
    return out


# --------------------------------------------------------------------------------------------
# The server
# --------------------------------------------------------------------------------------------


class FakeBotAPI:
    """Fake Telegram Bot API server. See module docstring."""

    def __init__(
        self,
        bot_username: str = "karata_bot",
        bot_id: int = 7000000001,
        bot_first_name: str = "Karata",
        *,
        can_join_groups: bool = True,
        can_read_all_group_messages: bool = False,
        supports_inline_queries: bool = False,
        strict_ampersand: bool = True,
        first_update_id: int = 100001,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        self.bot_username = bot_username
        self.bot_id = bot_id
        self.bot_first_name = bot_first_name
        self.can_join_groups = can_join_groups
        self.can_read_all_group_messages = can_read_all_group_messages
        self.supports_inline_queries = supports_inline_queries
        self.strict_ampersand = strict_ampersand
        self.host = host
        self._port = port

        self.users: dict[int, FakeUser] = {}
        self.chats: dict[int, FakeChat] = {}
        self.bot_status: dict[int, str] = {}  # group chat id -> bot's status
        self._messages: dict[int, list[MessageRecord]] = {}
        self._msg_index: dict[tuple[int, int], MessageRecord] = {}
        self._next_msg_id: dict[int, int] = {}

        self.calls: list[tuple[str, dict]] = []
        self.errors: list[tuple[str, dict, int, str]] = []
        self.unknown_calls: list[tuple[str, dict]] = []
        self.tokens: list[str] = []

        self.updates_log: list[dict] = []  # every update ever queued
        self._pending: list[dict] = []
        self._next_update_id = first_update_id
        self._delivered_upto = first_update_id - 1
        self.allowed_updates: list[str] | None = None
        self._poll_gen = 0

        self.queries: dict[str, dict] = {}
        self._next_query = 4_000_000_000_000_000_001
        self.polls: dict[str, dict] = {}
        self._next_poll = 5_000_000_000_000_000_001
        self.commands_store: dict[tuple[str, str], list[dict]] = {}
        self.webhook: dict[str, Any] = {}
        self._floods: dict[str, list] = {}
        self._failures: dict[str, list] = {}
        self._migrated: dict[int, int] = {}

        self._pulse: asyncio.Event | None = None  # created in start(), inside the loop
        self._inflight = 0
        self._last_activity = time.monotonic()
        self._stopping = False
        self._runner: web.AppRunner | None = None
        self.base_url = ""
        self.base_file_url = ""

    # ----------------------------------------------------------------- lifecycle
    async def start(self) -> "FakeBotAPI":
        self._pulse = asyncio.Event()
        self._stopping = False
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        app.router.add_route("*", "/file/bot{token}/{path:.*}", self._handle_not_found)
        app.router.add_route("*", "/{tail:.*}", self._handle_not_found)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.5)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self._port)
        await site.start()
        host, port = self._runner.addresses[0][:2]
        self.port = port
        self.base_url = f"http://{self.host}:{port}/bot"
        self.base_file_url = f"http://{self.host}:{port}/file/bot"
        return self

    async def stop(self) -> None:
        self._stopping = True
        self._notify()
        if self._runner is not None:
            await asyncio.sleep(0)  # let released long polls answer
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> "FakeBotAPI":
        return await self.start()

    async def __aexit__(self, *exc: Any) -> None:
        await self.stop()

    # ----------------------------------------------------------------- helpers
    @property
    def bot_user(self) -> dict:
        return {"id": self.bot_id, "is_bot": True, "first_name": self.bot_first_name,
                "username": self.bot_username}

    def _notify(self) -> None:
        if self._pulse is not None:
            self._pulse.set()
            self._pulse = asyncio.Event()

    def _touch(self) -> None:
        self._last_activity = time.monotonic()

    @staticmethod
    def _uid(user: FakeUser | int) -> int:
        return user.id if isinstance(user, FakeUser) else int(user)

    def _user(self, user: FakeUser | int) -> FakeUser:
        uid = self._uid(user)
        if uid not in self.users:
            raise KeyError(f"unknown user {uid}; call add_user first")
        return self.users[uid]

    def _queue(self, kind: str, payload: dict) -> dict:
        upd = {"update_id": self._next_update_id, kind: payload}
        self._next_update_id += 1
        self._pending.append(upd)
        self.updates_log.append(upd)
        self._touch()
        self._notify()
        return upd

    def _chat_dict(self, chat_id: int) -> dict:
        if chat_id in self._migrated:
            title = self.chats[self._migrated[chat_id]].title
            return {"id": chat_id, "type": "group", "title": title}
        if chat_id in self.chats:
            return self.chats[chat_id].to_api()
        return self.users[chat_id].private_chat()

    def _new_message_id(self, chat_id: int) -> int:
        mid = self._next_msg_id.get(chat_id, 1)
        self._next_msg_id[chat_id] = mid + 1
        return mid

    def _store(self, rec: MessageRecord) -> MessageRecord:
        rec._snapshot()
        self._messages.setdefault(rec.chat_id, []).append(rec)
        self._msg_index[(rec.chat_id, rec.message_id)] = rec
        return rec

    def _get_msg(self, chat_id: int, message_id: int) -> MessageRecord | None:
        rec = self._msg_index.get((chat_id, message_id))
        if rec is None or rec.deleted:
            return None
        return rec

    def message_dict(self, rec: MessageRecord, nested: bool = True) -> dict:
        """The Bot API ``Message`` object for a record (current version)."""
        d: dict[str, Any] = {"message_id": rec.message_id, "date": rec.date,
                             "chat": self._chat_dict(rec.chat_id)}
        if rec.from_bot:
            d["from"] = self.bot_user
        else:
            d["from"] = self.users[rec.sender_id].to_api()
        if rec.thread_id is not None:
            d["message_thread_id"] = rec.thread_id
            chat = self.chats.get(rec.chat_id)
            if chat is not None and chat.is_forum:
                d["is_topic_message"] = True
        if rec.text is not None:
            d["text"] = rec.plain
            if rec.entities:
                d["entities"] = rec.entities
        if rec.poll_id is not None:
            d["poll"] = self._poll_dict(rec.poll_id)
        if rec.service:
            d.update(rec.service)
        if rec.reply_markup and "inline_keyboard" in rec.reply_markup:
            d["reply_markup"] = rec.reply_markup
        if rec.edit_date is not None:
            d["edit_date"] = rec.edit_date
        if nested and rec.reply_to_message_id is not None:
            target = self._msg_index.get((rec.chat_id, rec.reply_to_message_id))
            if target is not None and not target.deleted:
                d["reply_to_message"] = self.message_dict(target, nested=False)
        return d

    # ----------------------------------------------------------------- test-side setup
    def add_user(self, user_id: int, first_name: str, language_code: str | None = "en",
                 username: str | None = None, last_name: str | None = None) -> FakeUser:
        u = FakeUser(id=int(user_id), first_name=first_name, language_code=language_code,
                     username=username, last_name=last_name)
        self.users[u.id] = u
        return u

    def add_group(self, chat_id: int, title: str, members: dict | None = None,
                  forum: bool = False, username: str | None = None,
                  bot_status: str = "member", topics: Iterable[str] = ()) -> FakeChat:
        """A supergroup. ``members`` maps user (id or FakeUser) to "creator", "administrator",
        "member", "left" or "kicked". The bot's own status is ``bot_status`` (or give the bot
        id in ``members``)."""
        chat = FakeChat(id=int(chat_id), title=title, is_forum=forum, username=username)
        self.chats[chat.id] = chat
        self.bot_status[chat.id] = bot_status
        for user, status in (members or {}).items():
            self.set_member(chat.id, user, status)
        if forum:
            self._next_msg_id[chat.id] = 2  # thread 1 is the General topic
        for name in topics:
            self.add_topic(chat.id, name)
        return chat

    def set_member(self, chat_id: int, user: FakeUser | int, status: str) -> None:
        uid = self._uid(user)
        if uid == self.bot_id:
            self.bot_status[chat_id] = status
        else:
            self.chats[chat_id].members[uid] = status

    def migrate_group(self, old_chat_id: int, new_chat_id: int) -> FakeChat:
        """The (basic) group ``old_chat_id`` was upgraded to supergroup ``new_chat_id``: any
        method on the old id fails with 400 "group chat was upgraded to a supergroup chat" and
        parameters.migrate_to_chat_id (PTB raises ChatMigrated)."""
        chat = self.chats.pop(int(old_chat_id))
        chat.id = int(new_chat_id)
        self.chats[chat.id] = chat
        self.bot_status[chat.id] = self.bot_status.pop(int(old_chat_id), "member")
        self._migrated[int(old_chat_id)] = chat.id
        return chat

    def clear_calls(self) -> None:
        """Forget recorded calls and errors (state is kept)."""
        self.calls.clear()
        self.errors.clear()
        self.unknown_calls.clear()

    def kick_bot(self, chat_id: int) -> None:
        self.bot_status[chat_id] = "kicked"

    def add_topic(self, chat_id: int, name: str) -> int:
        """Create a forum topic; returns its message_thread_id."""
        chat = self.chats[chat_id]
        mid = self._new_message_id(chat_id)
        if mid == 1:  # thread 1 is the General topic, as on Telegram
            mid = self._new_message_id(chat_id)
        self._store(MessageRecord(
            chat_id=chat_id, message_id=mid, from_bot=True, sender_id=self.bot_id,
            date=int(time.time()), text=None, parse_mode=None, plain=None, entities=[],
            reply_markup=None, thread_id=mid,
            service={"forum_topic_created": {"name": name, "icon_color": 7322096}}))
        chat.topics[mid] = name
        return mid

    def block(self, user: FakeUser | int) -> None:
        u = self._user(user)
        was = "member" if u.started and not u.blocked else None
        u.blocked = True
        if was:
            self._queue("my_chat_member", self._my_chat_member(u, "member", "kicked"))

    def _my_chat_member(self, u: FakeUser, old: str, new: str) -> dict:
        def cm(status: str) -> dict:
            d = {"status": status, "user": self.bot_user}
            if status == "kicked":
                d["until_date"] = 0
            return d
        return {"chat": u.private_chat(), "from": u.to_api(), "date": int(time.time()),
                "old_chat_member": cm(old), "new_chat_member": cm(new)}

    # ----------------------------------------------------------------- simulated users
    def _is_member(self, uid: int, chat_id: int) -> bool:
        if chat_id in self.chats:
            return self.chats[chat_id].members.get(uid, "left") not in ("left", "kicked")
        return chat_id == uid

    def _user_message(self, u: FakeUser, chat_id: int, text: str,
                      reply_to_message_id: int | None, thread_id: int | None,
                      extra_entities: list | None = None) -> MessageRecord:
        if reply_to_message_id is not None and self._get_msg(chat_id, reply_to_message_id) is None:
            raise ValueError(f"message {reply_to_message_id} not found in chat {chat_id}")
        chat = self.chats.get(chat_id)
        if thread_id is not None and chat is not None and chat.is_forum \
                and thread_id not in chat.topics:
            raise ValueError(f"topic {thread_id} not found in chat {chat_id}")
        ents = command_entities(text) if extra_entities is None else extra_entities
        rec = MessageRecord(
            chat_id=chat_id, message_id=self._new_message_id(chat_id), from_bot=False,
            sender_id=u.id, date=int(time.time()), text=text, parse_mode=None, plain=text,
            entities=ents, reply_markup=None, thread_id=thread_id,
            reply_to_message_id=reply_to_message_id)
        return self._store(rec)

    def _bot_receives(self, rec: MessageRecord) -> bool:
        """Privacy mode: in groups the bot only gets commands (for it), replies to its own
        messages, unless it is an admin or can_read_all_group_messages."""
        if rec.chat_id not in self.chats:
            return True
        if self.bot_status.get(rec.chat_id) in ("left", "kicked"):
            return False
        if self.can_read_all_group_messages or \
                self.bot_status.get(rec.chat_id) in ("administrator", "creator"):
            return True
        for e in rec.entities:
            if e["type"] == "bot_command":
                cmd = rec.text[e["offset"]:e["offset"] + e["length"]]
                if "@" not in cmd or cmd.split("@", 1)[1].lower() == self.bot_username.lower():
                    return True
        if rec.reply_to_message_id is not None:
            target = self._msg_index.get((rec.chat_id, rec.reply_to_message_id))
            if target is not None and target.from_bot:
                return True
        return False

    async def user_starts_bot(self, user: FakeUser | int, payload: str | None = None) -> dict:
        """The user presses START in the private chat (optionally via
        ``https://t.me/<bot>?start=PAYLOAD``). Queues "/start [PAYLOAD]"."""
        u = self._user(user)
        if u.blocked:
            self._queue("my_chat_member", self._my_chat_member(u, "kicked", "member"))
        u.started = True
        u.blocked = False
        text = "/start" if not payload else f"/start {payload}"
        rec = self._user_message(u, u.id, text, None, None,
                                 [{"type": "bot_command", "offset": 0, "length": 6}])
        msg = self.message_dict(rec)
        self._queue("message", msg)
        return msg

    async def open_link(self, user: FakeUser | int, url: str) -> dict:
        """Follow a ``https://t.me/<bot>?start=PAYLOAD`` deep link."""
        m = re.match(r"^(?:https?://)?t\.me/([A-Za-z0-9_]+)\?start=([A-Za-z0-9_-]*)$", url)
        if not m or m.group(1).lower() != self.bot_username.lower():
            raise ValueError(f"not a start link for @{self.bot_username}: {url}")
        return await self.user_starts_bot(user, m.group(2) or None)

    async def send_text(self, user: FakeUser | int, chat_id: int, text: str,
                        reply_to_message_id: int | None = None,
                        thread_id: int | None = None) -> dict:
        """The user sends ``text`` to ``chat_id`` (a group they are in, or their private chat
        with the bot). Returns the Message dict; it is queued as an update if the bot would
        receive it (privacy mode applies in groups)."""
        u = self._user(user)
        chat_id = int(chat_id)
        if chat_id in self.chats:
            if not self._is_member(u.id, chat_id):
                raise ValueError(f"user {u.id} is not a member of chat {chat_id}")
        elif chat_id == u.id:
            if not u.started or u.blocked:
                if re.match(r"^/start(\s|$)", text):
                    payload = text[6:].strip() or None
                    return await self.user_starts_bot(u, payload)
                raise ValueError(f"user {u.id} must start the bot first (user_starts_bot)")
        else:
            raise ValueError(f"user {u.id} cannot write to chat {chat_id}")
        rec = self._user_message(u, chat_id, text, reply_to_message_id, thread_id)
        msg = self.message_dict(rec)
        if self._bot_receives(rec):
            self._queue("message", msg)
        return msg

    def _new_query(self, u: FakeUser, rec: MessageRecord, data: str, forged: bool) -> str:
        qid = str(self._next_query)
        self._next_query += 1
        self.queries[qid] = {"user_id": u.id, "chat_id": rec.chat_id,
                             "message_id": rec.message_id, "data": data, "forged": forged,
                             "answered": False, "answer": None}
        payload = {"id": qid, "from": u.to_api(), "message": self.message_dict(rec),
                   "chat_instance": str(abs(hash((rec.chat_id, self.bot_id))) % 10 ** 18),
                   "data": data}
        self._queue("callback_query", payload)
        return qid

    def _pressable(self, u: FakeUser, chat_id: int, message_id: int) -> MessageRecord:
        chat_id = int(chat_id)
        if not self._is_member(u.id, chat_id):
            raise ValueError(f"user {u.id} cannot see chat {chat_id}")
        rec = self._get_msg(chat_id, int(message_id))
        if rec is None:
            raise ValueError(f"message {message_id} not found (or deleted) in chat {chat_id}")
        return rec

    async def press(self, user: FakeUser | int, chat_id: int, message_id: int,
                    callback_data: str) -> str:
        """Press the inline button carrying ``callback_data``; returns the callback query id.
        Raises ValueError if the message has no such button."""
        u = self._user(user)
        rec = self._pressable(u, chat_id, message_id)
        datas = [d for row in rec.buttons for (_, d) in row]
        if callback_data not in datas or not rec.reply_markup \
                or "inline_keyboard" not in rec.reply_markup:
            raise ValueError(
                f"message {message_id} in chat {chat_id} has no button with data "
                f"{callback_data!r}; buttons: {rec.buttons}")
        return self._new_query(u, rec, callback_data, forged=False)

    async def press_text(self, user: FakeUser | int, chat_id: int, message_id: int,
                         button_text: str) -> str:
        """Press the inline button whose label is ``button_text``."""
        u = self._user(user)
        rec = self._pressable(u, chat_id, message_id)
        for row in rec.buttons:
            for text, data in row:
                if text == button_text:
                    return await self.press(u, chat_id, message_id, data)
        raise ValueError(f"no button labelled {button_text!r}; buttons: {rec.buttons}")

    async def press_forged(self, user: FakeUser | int, chat_id: int, message_id: int,
                           callback_data: str) -> str:
        """Send a callback query with arbitrary data for an existing message (a hacked
        client)."""
        u = self._user(user)
        rec = self._msg_index.get((int(chat_id), int(message_id)))
        if rec is None:
            raise ValueError(f"message {message_id} not found in chat {chat_id}")
        return self._new_query(u, rec, callback_data, forged=True)

    async def answer_poll(self, user: FakeUser | int, poll_id: str,
                          option_ids: Iterable[int]) -> None:
        """The user votes (an empty list retracts). Queues poll_answer and poll updates."""
        u = self._user(user)
        p = self.polls[poll_id]
        if p["is_closed"]:
            raise ValueError("poll is closed")
        if p["is_anonymous"]:
            raise ValueError("anonymous polls do not produce poll_answer updates")
        if not self._is_member(u.id, p["chat_id"]):
            raise ValueError(f"user {u.id} cannot see the poll")
        ids = [int(i) for i in option_ids]
        if any(i < 0 or i >= len(p["options"]) for i in ids):
            raise ValueError(f"invalid option ids {ids}")
        if len(ids) > 1 and not p["allows_multiple_answers"]:
            raise ValueError("poll does not allow multiple answers")
        if ids:
            p["votes"][u.id] = ids
        else:
            p["votes"].pop(u.id, None)
        self._queue("poll_answer", {"poll_id": poll_id, "user": u.to_api(), "option_ids": ids,
                                    "option_persistent_ids": [str(i) for i in ids]})
        self._queue("poll", self._poll_dict(poll_id))

    # ----------------------------------------------------------------- failure injection
    def flood(self, method: str, retry_after: int = 1, times: int = 1) -> None:
        """The next ``times`` calls of ``method`` fail with 429 Too Many Requests."""
        self._floods[method.lower()] = [int(retry_after), int(times)]

    def fail_next(self, method: str, error_code: int, description: str,
                  times: int = 1, parameters: dict | None = None) -> None:
        """The next ``times`` calls of ``method`` fail with the given error."""
        self._failures[method.lower()] = [error_code, description, parameters, int(times)]

    # ----------------------------------------------------------------- inspection
    def messages(self, chat_id: int) -> list[MessageRecord]:
        """All messages of a chat in order (bot's and users', deleted ones included)."""
        return list(self._messages.get(int(chat_id), []))

    def bot_messages(self, chat_id: int, include_deleted: bool = False) -> list[MessageRecord]:
        return [m for m in self.messages(chat_id)
                if m.from_bot and m.service is None and (include_deleted or not m.deleted)]

    def last_message(self, chat_id: int, from_bot: bool = True) -> MessageRecord | None:
        """The latest non-deleted message (by default: sent by the bot) in the chat."""
        for m in reversed(self.messages(chat_id)):
            if not m.deleted and m.service is None and (m.from_bot or not from_bot):
                return m
        return None

    def message(self, chat_id: int, message_id: int) -> MessageRecord | None:
        return self._msg_index.get((int(chat_id), int(message_id)))

    def buttons(self, chat_id: int, message_id: int) -> list[list[tuple[str, str | None]]]:
        rec = self.message(chat_id, message_id)
        return rec.buttons if rec else []

    def calls_of(self, method: str) -> list[dict]:
        return [p for m, p in self.calls if m.lower() == method.lower()]

    def callback_answer(self, query_id: str) -> dict | None:
        q = self.queries.get(str(query_id))
        return q["answer"] if q else None

    async def wait_for_answer(self, query_id: str, timeout: float = 5) -> dict:
        await self.wait_until(lambda: self.callback_answer(query_id) is not None, timeout,
                              f"answer to callback query {query_id}")
        return self.callback_answer(query_id)  # type: ignore[return-value]

    def toasts(self, user: FakeUser | int) -> list[dict]:
        """Callback answers the user saw (dicts with text, show_alert, url)."""
        uid = self._uid(user)
        return [q["answer"] for q in self.queries.values()
                if q["user_id"] == uid and q["answer"] is not None]

    def commands(self, scope: dict | None = None, language_code: str = "") -> list[dict]:
        return self.commands_store.get((self._scope_key(scope), language_code or ""), [])

    def visible_items(self, user: FakeUser | int) -> list[tuple[str, int | None, int | None, str]]:
        """Everything ``user`` could have seen: (kind, chat_id, message_id, text) for every
        version of every message in their chats (text, button labels, poll question and
        options) and the toasts they got."""
        uid = self._uid(user)
        items: list[tuple[str, int | None, int | None, str]] = []
        chat_ids = [cid for cid in self.chats if self._is_member(uid, cid)] + [uid]
        for cid in chat_ids:
            for rec in self._messages.get(cid, []):
                for v in rec.versions:
                    if v["plain"]:
                        items.append(("text", cid, rec.message_id, v["plain"]))
                    for row in markup_buttons(v["reply_markup"]):
                        for label, _ in row:
                            items.append(("button", cid, rec.message_id, label))
                if rec.poll_id:
                    p = self.polls[rec.poll_id]
                    items.append(("poll", cid, rec.message_id, p["question"]))
                    for o in p["options"]:
                        items.append(("poll_option", cid, rec.message_id, o))
        for q in self.queries.values():
            if q["user_id"] == uid and q["answer"] and q["answer"].get("text"):
                items.append(("toast", q["chat_id"], q["message_id"], q["answer"]["text"]))
        return items

    def visible_text(self, user: FakeUser | int) -> str:
        """All text ``user`` could have seen (see visible_items), joined by newlines."""
        return "\n".join(t for _, _, _, t in self.visible_items(user))

    @property
    def pending_updates(self) -> list[dict]:
        return list(self._pending)

    # ----------------------------------------------------------------- synchronisation
    async def wait_until(self, predicate: Callable[[], Any], timeout: float = 5,
                         what: str | None = None) -> Any:
        """Poll ``predicate`` (sync or async) until truthy; return its value."""
        deadline = time.monotonic() + timeout
        while True:
            val = predicate()
            if asyncio.iscoroutine(val):
                val = await val
            if val:
                return val
            if time.monotonic() >= deadline:
                raise TimeoutError(f"timed out after {timeout}s waiting for "
                                   f"{what or getattr(predicate, '__name__', 'predicate')}")
            await asyncio.sleep(0.01)

    async def settle(self, quiet: float = 0.2, timeout: float = 10) -> None:
        """Wait until every queued update was fetched by the bot, no request is in flight and
        no API call (other than an idle getUpdates) arrived for ``quiet`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            now = time.monotonic()
            undelivered = [u["update_id"] for u in self._pending
                           if u["update_id"] > self._delivered_upto]
            if not undelivered and self._inflight == 0 and now - self._last_activity >= quiet:
                return
            if now >= deadline:
                raise TimeoutError(
                    f"fake API did not settle within {timeout}s: undelivered updates "
                    f"{undelivered}, in-flight requests {self._inflight}")
            await asyncio.sleep(0.01)

    # ----------------------------------------------------------------- HTTP layer
    async def _handle_not_found(self, request: web.Request) -> web.Response:
        return web.json_response({"ok": False, "error_code": 404, "description": "Not Found"},
                                 status=404)

    async def _read_params(self, request: web.Request) -> dict:
        params: dict[str, Any] = dict(request.query)
        if request.method == "POST" and request.can_read_body:
            ctype = request.content_type
            if ctype == "application/json":
                body = await request.json()
                if isinstance(body, dict):
                    params.update(body)
            elif ctype in ("application/x-www-form-urlencoded", "multipart/form-data"):
                form = await request.post()
                for k, v in form.items():
                    if isinstance(v, web.FileField):
                        params[k] = {"filename": v.filename, "content": v.file.read()}
                    else:
                        params[k] = v
        return self._decode(params)

    @staticmethod
    def _decode(params: dict) -> dict:
        out = {}
        for k, v in params.items():
            if isinstance(v, str) and k not in TEXT_FIELDS:
                s = v.strip()
                if k in JSON_FIELDS or (s[:1] in "[{" and s):
                    try:
                        v = json.loads(s)
                    except ValueError:
                        if k in JSON_FIELDS:
                            raise _bad(f"can't parse {k} JSON object")
                elif k in INT_FIELDS and re.fullmatch(r"-?\d+", s):
                    v = int(s)
                elif s in ("true", "false"):
                    v = s == "true"
                elif k in INT_FIELDS and re.fullmatch(r"-?\d+\.\d*", s):
                    v = float(s)
            elif isinstance(v, float) and k in INT_FIELDS and v.is_integer():
                v = int(v)
            out[k] = v
        return out

    async def _handle(self, request: web.Request) -> web.Response:
        token = request.match_info["token"]
        method = request.match_info["method"]
        name = method.lower()
        if token not in self.tokens:
            self.tokens.append(token)
        is_poll = name == "getupdates"
        if not is_poll:
            self._inflight += 1
            self._touch()
        params: dict = {}
        try:
            params = await self._read_params(request)
            self.calls.append((method, params))
            self._check_injected(name)
            handler = getattr(self, "_m_" + name, None)
            if handler is None:
                self.unknown_calls.append((method, params))
                raise TelegramAPIError(404, "Not Found")
            result = await handler(params)
            if is_poll and result:
                self._touch()
            return web.json_response({"ok": True, "result": result})
        except TelegramAPIError as e:
            gone = request.transport is None or request.transport.is_closing()
            if not (is_poll and gone):  # a long poll the client already abandoned
                self.errors.append((method, params, e.code, e.description))
            return web.json_response(e.to_json(), status=e.code)
        except Exception as e:  # a bug in the fake or a malformed parameter: make it loud
            desc = f"Internal Server Error: FakeBotAPI failed on {method}: {e!r}"
            self.errors.append((method, params, 500, desc))
            return web.json_response({"ok": False, "error_code": 500, "description": desc},
                                     status=500)
        finally:
            if not is_poll:
                self._inflight -= 1
                self._touch()
            self._notify()

    def _check_injected(self, name: str) -> None:
        fl = self._floods.get(name)
        if fl and fl[1] > 0:
            fl[1] -= 1
            raise TelegramAPIError(429, f"Too Many Requests: retry after {fl[0]}",
                                   {"retry_after": fl[0]})
        fa = self._failures.get(name)
        if fa and fa[3] > 0:
            fa[3] -= 1
            raise TelegramAPIError(fa[0], fa[1], fa[2])

    # ----------------------------------------------------------------- validation helpers
    def _resolve_chat(self, raw: Any) -> int:
        if raw is None or raw == "":
            raise _bad("chat_id is empty")
        if isinstance(raw, str):
            if raw.startswith("@"):
                for c in self.chats.values():
                    if c.username and c.username.lower() == raw[1:].lower():
                        return c.id
                raise _bad(E_CHAT_NOT_FOUND)
            try:
                raw = int(raw)
            except ValueError:
                raise _bad(E_CHAT_NOT_FOUND)
        cid = int(raw)
        if cid in self._migrated:
            raise TelegramAPIError(400, "Bad Request: group chat was upgraded to a supergroup "
                                   "chat", {"migrate_to_chat_id": self._migrated[cid]})
        if cid in self.chats or cid in self.users:
            return cid
        raise _bad(E_CHAT_NOT_FOUND)

    def _check_can_write(self, chat_id: int) -> None:
        if chat_id in self.chats:
            st = self.bot_status.get(chat_id, "member")
            if st == "kicked":
                raise _forbidden(E_KICKED)
            if st == "left":
                raise _forbidden(E_NOT_MEMBER)
            return
        u = self.users[chat_id]
        if u.blocked:
            raise _forbidden(E_BLOCKED)
        if not u.started:
            raise _forbidden(E_CANT_INITIATE)

    def _validate_markup(self, markup: Any) -> dict | None:
        if markup is None:
            return None
        if not isinstance(markup, dict):
            raise _bad("can't parse reply keyboard markup JSON object")
        if "inline_keyboard" in markup:
            rows = markup["inline_keyboard"]
            if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
                raise _bad("can't parse inline keyboard button: InlineKeyboardButton must be "
                           "an Object")
            for row in rows:
                for b in row:
                    if not isinstance(b, dict) or "text" not in b:
                        raise _bad("can't parse inline keyboard button: Text buttons are "
                                   "unallowed in the inline keyboard")
                    if "callback_data" in b:
                        data = b["callback_data"]
                        if not isinstance(data, str) or not (
                                0 < len(data.encode("utf-8")) <= MAX_CALLBACK_DATA):
                            raise _bad(E_BUTTON_DATA)
                    elif "url" in b:
                        if not re.match(r"^(https?|tg)://\S+$", str(b["url"])) and \
                                not re.match(r"^t\.me/\S+$", str(b["url"])):
                            raise _bad(E_BUTTON_URL)
        return markup

    def _format(self, text: Any, parse_mode: Any, entities: Any) -> tuple[str, str, list]:
        if text is None:
            raise _bad(E_EMPTY)
        text = str(text)
        plain, ents = format_text(text, parse_mode, entities, self.strict_ampersand)
        if not plain.strip():
            raise _bad(E_EMPTY)
        if utf16_len(plain) > MAX_TEXT:
            raise _bad(E_TOO_LONG)
        return text, plain, ents

    def _thread_for_send(self, chat_id: int, p: dict) -> int | None:
        tid = p.get("message_thread_id")
        if tid in (None, 0):
            return None
        tid = int(tid)
        chat = self.chats.get(chat_id)
        if chat is None:
            return None
        if chat.is_forum:
            if tid == 1:
                return None  # General topic
            if tid not in chat.topics:
                raise _bad(E_THREAD_NOT_FOUND)
            return tid
        if self._get_msg(chat_id, tid) is None:
            raise _bad(E_THREAD_NOT_FOUND)
        return tid

    def _reply_target(self, chat_id: int, p: dict) -> int | None:
        rp = p.get("reply_parameters")
        mid, allow = None, bool(p.get("allow_sending_without_reply"))
        if isinstance(rp, dict):
            mid = rp.get("message_id")
            allow = allow or bool(rp.get("allow_sending_without_reply"))
            if rp.get("chat_id") not in (None, chat_id):
                mid = None
        elif p.get("reply_to_message_id") is not None:
            mid = p["reply_to_message_id"]
        if mid is None:
            return None
        if self._get_msg(chat_id, int(mid)) is None:
            if allow:
                return None
            raise _bad(E_REPLY_NOT_FOUND)
        return int(mid)

    def _bot_record(self, chat_id: int, p: dict, **kw: Any) -> MessageRecord:
        thread = self._thread_for_send(chat_id, p)
        reply_to = self._reply_target(chat_id, p)
        if thread is None and reply_to is not None:
            target = self._get_msg(chat_id, reply_to)
            thread = target.thread_id if target else None
        rec = MessageRecord(chat_id=chat_id, message_id=self._new_message_id(chat_id),
                            from_bot=True, sender_id=self.bot_id, date=int(time.time()),
                            thread_id=thread, reply_to_message_id=reply_to, **kw)
        return self._store(rec)

    def _editable(self, p: dict) -> MessageRecord:
        if p.get("inline_message_id"):
            raise _bad("inline messages are not supported by FakeBotAPI")
        chat_id = self._resolve_chat(p.get("chat_id"))
        if p.get("message_id") is None:
            raise _bad("message identifier is not specified")
        self._check_can_write(chat_id)
        rec = self._get_msg(chat_id, int(p["message_id"]))
        if rec is None:
            raise _bad(E_EDIT_NOT_FOUND)
        if not rec.from_bot or rec.service:
            raise _bad(E_CANT_EDIT)
        return rec

    # ----------------------------------------------------------------- API methods
    async def _m_getme(self, p: dict) -> dict:
        return {**self.bot_user, "can_join_groups": self.can_join_groups,
                "can_read_all_group_messages": self.can_read_all_group_messages,
                "supports_inline_queries": self.supports_inline_queries,
                "can_connect_to_business": False, "has_main_web_app": False}

    async def _m_logout(self, p: dict) -> bool:
        return True

    async def _m_close(self, p: dict) -> bool:
        return True

    def _available(self) -> list[dict]:
        allowed = set(self.allowed_updates) if self.allowed_updates else DEFAULT_UPDATE_TYPES
        keep = []
        for u in self._pending:
            kind = next(k for k in u if k != "update_id")
            if kind in allowed:
                keep.append(u)
        self._pending = keep  # Telegram drops updates of types that are not allowed
        return keep

    async def _m_getupdates(self, p: dict) -> list[dict]:
        if self.webhook.get("url"):
            raise TelegramAPIError(409, E_WEBHOOK_CONFLICT)
        offset = p.get("offset")
        limit = max(1, min(100, int(p.get("limit") or 100)))
        timeout = max(0.0, float(p.get("timeout") or 0))
        if "allowed_updates" in p and p["allowed_updates"] is not None:
            au = p["allowed_updates"]
            self.allowed_updates = list(au) if au else None
        if offset:
            offset = int(offset)
            if offset > 0:
                self._pending = [u for u in self._pending if u["update_id"] >= offset]
            else:
                self._pending = self._pending[offset:]
        self._poll_gen += 1
        gen = self._poll_gen
        deadline = time.monotonic() + timeout
        while True:
            avail = self._available()
            if avail or self._stopping:
                break
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            pulse = self._pulse
            try:
                await asyncio.wait_for(pulse.wait(), remaining)
            except asyncio.TimeoutError:
                pass
            if self._poll_gen != gen:
                raise TelegramAPIError(409, E_POLL_CONFLICT)
        result = avail[:limit]
        if result:
            self._delivered_upto = max(self._delivered_upto, result[-1]["update_id"])
        return result

    async def _m_setwebhook(self, p: dict) -> bool:
        url = p.get("url") or ""
        if url and not url.startswith("https://"):
            raise _bad("bad webhook: An HTTPS URL must be provided for webhook")
        self.webhook = {"url": url, **{k: v for k, v in p.items() if k != "url"}}
        if p.get("drop_pending_updates"):
            self._pending.clear()
        if "allowed_updates" in p:
            self.allowed_updates = list(p["allowed_updates"]) or None
        return True

    async def _m_deletewebhook(self, p: dict) -> bool:
        self.webhook = {}
        if p.get("drop_pending_updates"):
            self._pending.clear()
        return True

    async def _m_getwebhookinfo(self, p: dict) -> dict:
        info: dict[str, Any] = {"url": self.webhook.get("url", ""),
                                "has_custom_certificate": False,
                                "pending_update_count": len(self._pending)}
        if self.webhook.get("max_connections"):
            info["max_connections"] = self.webhook["max_connections"]
        if self.allowed_updates:
            info["allowed_updates"] = self.allowed_updates
        return info

    @staticmethod
    def _scope_key(scope: Any) -> str:
        if not scope:
            scope = {"type": "default"}
        return json.dumps(scope, sort_keys=True)

    async def _m_setmycommands(self, p: dict) -> bool:
        cmds = p.get("commands")
        if not isinstance(cmds, list):
            raise _bad("can't parse commands JSON object")
        clean = []
        for c in cmds:
            if not isinstance(c, dict) or not re.fullmatch(r"[a-z0-9_]{1,32}",
                                                           str(c.get("command", ""))):
                raise _bad("BOT_COMMAND_INVALID")
            desc = str(c.get("description", ""))
            if not 1 <= len(desc) <= 256:
                raise _bad("BOT_COMMAND_DESCRIPTION_INVALID")
            clean.append({"command": c["command"], "description": desc})
        key = (self._scope_key(p.get("scope")), p.get("language_code") or "")
        if clean:
            self.commands_store[key] = clean
        else:
            self.commands_store.pop(key, None)
        return True

    async def _m_getmycommands(self, p: dict) -> list:
        return self.commands(p.get("scope"), p.get("language_code") or "")

    async def _m_deletemycommands(self, p: dict) -> bool:
        self.commands_store.pop((self._scope_key(p.get("scope")), p.get("language_code") or ""),
                                None)
        return True

    async def _m_sendmessage(self, p: dict) -> dict:
        chat_id = self._resolve_chat(p.get("chat_id"))
        text, plain, ents = self._format(p.get("text"), p.get("parse_mode"), p.get("entities"))
        markup = self._validate_markup(p.get("reply_markup"))
        self._check_can_write(chat_id)
        rec = self._bot_record(chat_id, p, text=text, parse_mode=p.get("parse_mode"),
                               plain=plain, entities=ents, reply_markup=markup)
        return self.message_dict(rec)

    async def _m_editmessagetext(self, p: dict) -> dict:
        rec = self._editable(p)
        if rec.text is None:
            raise _bad(E_NO_TEXT)
        text, plain, ents = self._format(p.get("text"), p.get("parse_mode"), p.get("entities"))
        markup = self._validate_markup(p.get("reply_markup"))  # absent => keyboard removed
        if plain == rec.plain and ents == rec.entities and markup == rec.reply_markup:
            raise _bad(E_NOT_MODIFIED)
        rec.text, rec.plain, rec.entities = text, plain, ents
        rec.parse_mode, rec.reply_markup = p.get("parse_mode"), markup
        return self._edited(rec)

    def _edited(self, rec: MessageRecord) -> dict:
        rec.edit_count += 1
        rec.edit_date = int(time.time())
        rec._snapshot()
        return self.message_dict(rec)

    async def _m_editmessagereplymarkup(self, p: dict) -> dict:
        rec = self._editable(p)
        markup = self._validate_markup(p.get("reply_markup"))
        if markup == rec.reply_markup:
            raise _bad(E_NOT_MODIFIED)
        rec.reply_markup = markup
        return self._edited(rec)

    async def _m_deletemessage(self, p: dict) -> bool:
        chat_id = self._resolve_chat(p.get("chat_id"))
        rec = self._get_msg(chat_id, int(p.get("message_id") or 0))
        if rec is None:
            raise _bad(E_DELETE_NOT_FOUND)
        if not rec.from_bot and chat_id in self.chats and \
                self.bot_status.get(chat_id) not in ("administrator", "creator"):
            raise _bad(E_CANT_DELETE)
        rec.deleted = True
        return True

    async def _m_deletemessages(self, p: dict) -> bool:
        chat_id = self._resolve_chat(p.get("chat_id"))
        for mid in p.get("message_ids") or []:
            rec = self._get_msg(chat_id, int(mid))
            if rec is not None:
                rec.deleted = True
        return True

    async def _m_answercallbackquery(self, p: dict) -> bool:
        qid = str(p.get("callback_query_id", ""))
        q = self.queries.get(qid)
        if q is None or q["answered"]:
            raise _bad(E_QUERY_OLD)
        text = p.get("text")
        if text is not None and len(text) > 200:
            raise _bad("MESSAGE_TOO_LONG")
        q["answered"] = True
        q["answer"] = {"text": text, "show_alert": bool(p.get("show_alert", False)),
                       "url": p.get("url"), "cache_time": p.get("cache_time")}
        return True

    def _poll_dict(self, poll_id: str) -> dict:
        p = self.polls[poll_id]
        counts = [0] * len(p["options"])
        for ids in p["votes"].values():
            for i in ids:
                counts[i] += 1
        return {"id": poll_id, "question": p["question"],
                "options": [{"text": t, "voter_count": counts[i], "persistent_id": str(i)}
                            for i, t in enumerate(p["options"])],
                "total_voter_count": len(p["votes"]), "is_closed": p["is_closed"],
                "is_anonymous": p["is_anonymous"], "type": p["type"],
                "allows_multiple_answers": p["allows_multiple_answers"],
                "allows_revoting": True, "members_only": False}

    async def _m_sendpoll(self, p: dict) -> dict:
        chat_id = self._resolve_chat(p.get("chat_id"))
        question = p.get("question")
        if not question or len(question) > 300:
            raise _bad("POLL_QUESTION_INVALID")
        opts = p.get("options")
        if not isinstance(opts, list):
            raise _bad("can't parse options JSON object")
        options = [o["text"] if isinstance(o, dict) else str(o) for o in opts]
        if len(options) < 2:
            raise _bad("poll must have at least 2 option")
        if len(options) > 12:
            raise _bad("poll can't have more than 12 options")
        if any(not o or len(o) > 100 for o in options):
            raise _bad("POLL_OPTION_INVALID")
        markup = self._validate_markup(p.get("reply_markup"))
        self._check_can_write(chat_id)
        poll_id = str(self._next_poll)
        self._next_poll += 1
        anonymous = p.get("is_anonymous")
        self.polls[poll_id] = {
            "question": question, "options": options, "votes": {},
            "is_closed": bool(p.get("is_closed", False)),
            "is_anonymous": True if anonymous is None else bool(anonymous),
            "type": p.get("type") or "regular",
            "allows_multiple_answers": bool(p.get("allows_multiple_answers", False)),
            "chat_id": chat_id, "message_id": None,
        }
        rec = self._bot_record(chat_id, p, text=None, parse_mode=None, plain=None, entities=[],
                               reply_markup=markup, poll_id=poll_id)
        self.polls[poll_id]["message_id"] = rec.message_id
        return self.message_dict(rec)

    async def _m_stoppoll(self, p: dict) -> dict:
        chat_id = self._resolve_chat(p.get("chat_id"))
        rec = self._get_msg(chat_id, int(p.get("message_id") or 0))
        if rec is None or rec.poll_id is None:
            raise _bad(E_POLL_STOP_NOT_FOUND)
        poll = self.polls[rec.poll_id]
        if poll["is_closed"]:
            raise _bad(E_POLL_CLOSED)
        markup = self._validate_markup(p.get("reply_markup"))
        poll["is_closed"] = True
        if markup != rec.reply_markup:
            rec.reply_markup = markup
            rec._snapshot()
        return self._poll_dict(rec.poll_id)

    def _member_dict(self, chat_id: int, uid: int) -> dict:
        if uid == self.bot_id:
            status, user = self.bot_status.get(chat_id, "member"), self.bot_user
        else:
            if uid not in self.users:
                raise _bad(E_USER_NOT_FOUND)
            user = self.users[uid].to_api()
            status = self.chats[chat_id].members.get(uid, "left") if chat_id in self.chats \
                else "member"
        d: dict[str, Any] = {"status": status, "user": user}
        if status == "creator":
            d["is_anonymous"] = False
        elif status == "administrator":
            d.update(can_be_edited=False, is_anonymous=False, can_manage_chat=True,
                     can_delete_messages=True, can_manage_video_chats=True,
                     can_restrict_members=True, can_promote_members=False,
                     can_change_info=True, can_invite_users=True, can_post_stories=False,
                     can_edit_stories=False, can_delete_stories=False, can_pin_messages=True,
                     can_manage_topics=True)
        elif status == "kicked":
            d["until_date"] = 0
        return d

    async def _m_getchat(self, p: dict) -> dict:
        chat_id = self._resolve_chat(p.get("chat_id"))
        d = self._chat_dict(chat_id)
        d.update(accent_color_id=0, max_reaction_count=11,
                 accepted_gift_types={"unlimited_gifts": False, "limited_gifts": False,
                                      "unique_gifts": False, "premium_subscription": False,
                                      "gifts_from_channels": False})
        return d

    async def _m_getchatmember(self, p: dict) -> dict:
        chat_id = self._resolve_chat(p.get("chat_id"))
        return self._member_dict(chat_id, int(p.get("user_id") or 0))

    async def _m_getchatadministrators(self, p: dict) -> list:
        chat_id = self._resolve_chat(p.get("chat_id"))
        if chat_id not in self.chats:
            raise _bad("there are no administrators in the private chat")
        chat = self.chats[chat_id]
        ids = [u for u, s in chat.members.items() if s in ("creator", "administrator")]
        if self.bot_status.get(chat_id) in ("creator", "administrator"):
            ids.append(self.bot_id)
        return [self._member_dict(chat_id, u) for u in ids]

    async def _m_getchatmembercount(self, p: dict) -> int:
        chat_id = self._resolve_chat(p.get("chat_id"))
        if chat_id not in self.chats:
            return 2
        chat = self.chats[chat_id]
        n = sum(1 for s in chat.members.values() if s not in ("left", "kicked"))
        return n + (self.bot_status.get(chat_id) not in ("left", "kicked"))

    async def _m_sendchataction(self, p: dict) -> bool:
        chat_id = self._resolve_chat(p.get("chat_id"))
        self._check_can_write(chat_id)
        return True

    async def _m_pinchatmessage(self, p: dict) -> bool:
        chat_id = self._resolve_chat(p.get("chat_id"))
        self._check_can_write(chat_id)
        if chat_id in self.chats and \
                self.bot_status.get(chat_id) not in ("administrator", "creator"):
            raise _bad(E_PIN_RIGHTS)
        rec = self._get_msg(chat_id, int(p.get("message_id") or 0))
        if rec is None:
            raise _bad(E_PIN_NOT_FOUND)
        rec.pinned = True
        return True

    async def _m_unpinchatmessage(self, p: dict) -> bool:
        chat_id = self._resolve_chat(p.get("chat_id"))
        if chat_id in self.chats and \
                self.bot_status.get(chat_id) not in ("administrator", "creator"):
            raise _bad(E_PIN_RIGHTS)
        mid = p.get("message_id")
        if mid is None:
            pinned = [m for m in self._messages.get(chat_id, []) if m.pinned and not m.deleted]
            if pinned:
                pinned[-1].pinned = False
            return True
        rec = self._get_msg(chat_id, int(mid))
        if rec is None or not rec.pinned:
            raise _bad(E_UNPIN_NOT_FOUND)
        rec.pinned = False
        return True
