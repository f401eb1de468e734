"""What the fake remembers: users, chats, messages (with every version), documents and callback queries."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any


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
    """A group or supergroup. ``members`` maps user id to status: "creator", "administrator",
    "member", "left" or "kicked" (a user never added is "left")."""

    id: int
    title: str
    type: str = "supergroup"
    members: dict[int, str] = field(default_factory=dict)
    is_forum: bool = False
    username: str | None = None
    topics: dict[int, str] = field(default_factory=dict)  # message_thread_id -> name
    # Set when the group was upgraded to a supergroup (every call to it then fails with 400 and
    # `migrate_to_chat_id`), or deleted (every call fails with 403).
    migrated_to: int | None = None
    deleted: bool = False

    def status(self, user_id: int) -> str:
        return self.members.get(user_id, "left")

    def to_api(self) -> dict:
        d: dict[str, Any] = {"id": self.id, "type": self.type, "title": self.title}
        if self.username:
            d["username"] = self.username
        if self.is_forum:
            d["is_forum"] = True
        return d


@dataclass
class Document:
    """A file the bot sent with sendDocument, as uploaded (or re-sent by file_id)."""

    file_id: str
    file_unique_id: str
    file_name: str | None
    mime_type: str | None
    content: bytes

    @property
    def file_size(self) -> int:
        return len(self.content)

    def to_api(self) -> dict:
        d: dict[str, Any] = {
            "file_id": self.file_id,
            "file_unique_id": self.file_unique_id,
            "file_size": self.file_size,
        }
        if self.file_name:
            d["file_name"] = self.file_name
        if self.mime_type:
            d["mime_type"] = self.mime_type
        return d


@dataclass
class MessageRecord:
    """One message in a chat, as the fake remembers it.

    ``text`` is the text exactly as sent (e.g. with HTML tags); ``plain`` is what clients show
    (entities parsed, HTML entities unescaped).  For a document message both hold its caption
    (None without one).  ``versions`` holds every version (original first) as dicts with
    text/plain/parse_mode/entities/reply_markup and ``at``, the fake's clock when it was made.
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
    document: Document | None = None
    deleted: bool = False
    deleted_at: float | None = None
    edit_count: int = 0
    edit_date: int | None = None
    service: dict | None = None
    versions: list[dict] = field(default_factory=list)

    @property
    def caption(self) -> str | None:
        """The caption clients show under a document (None for other messages)."""
        return self.plain if self.document is not None else None

    @property
    def history(self) -> list[tuple[str | None, dict | None]]:
        """Every (text as sent, reply_markup) version, original first."""
        return [(v["text"], v["reply_markup"]) for v in self.versions]

    @property
    def plain_history(self) -> list[str | None]:
        return [v["plain"] for v in self.versions]

    @property
    def version_times(self) -> list[float]:
        """The fake's clock at each version: when it was sent, then at every edit."""
        return [v["at"] for v in self.versions]

    @property
    def edit_times(self) -> list[float]:
        return self.version_times[1:]

    @property
    def buttons(self) -> list[list[tuple[str, str | None]]]:
        return markup_buttons(self.reply_markup)

    def snapshot(self, at: float) -> None:
        """Remember the current content as a new version made at ``at``."""
        self.versions.append(
            {
                "text": self.text,
                "plain": self.plain,
                "parse_mode": self.parse_mode,
                "entities": list(self.entities),
                "reply_markup": json.loads(json.dumps(self.reply_markup)) if self.reply_markup is not None else None,
                "at": at,
            }
        )


@dataclass
class CallbackQuery:
    """A button press the fake sent the bot, with the times benchmarks measure."""

    id: str
    user_id: int
    chat_id: int
    message_id: int
    data: str
    forged: bool
    created_at: float  # the fake's clock when the update was queued
    answered_at: float | None = None  # ... and when answerCallbackQuery arrived
    fetched_at: float | None = None  # ... and when a getUpdates first handed it to the bot
    answer: dict | None = None  # text, show_alert, url, cache_time

    @property
    def latency(self) -> float | None:
        return None if self.answered_at is None else self.answered_at - self.created_at


def markup_buttons(markup: dict | None) -> list[list[tuple[str, str | None]]]:
    """Rows of (text, callback_data or url (a Mini App's too) or None) of an inline keyboard."""
    if not markup:
        return []
    return [
        [(b.get("text", ""), b.get("callback_data", b.get("url", (b.get("web_app") or {}).get("url")))) for b in row]
        for row in markup.get("inline_keyboard") or []
    ]
