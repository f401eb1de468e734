"""Callback data and deep-link payloads: short strings we make, and a strict parser for them.

In-game buttons carry the table, a digest of the keyboard they belong to (or the table version),
and a node of the action tree (see action_tree.py), never a card or rule the server
would trust: the server rebuilds the player's actions and looks the node up, so forged or stale
data can only select something legal now, or be refused. Parsing accepts only what we produce:
ASCII digits within bounds, known kinds and operations. Anything else is `BadCallbackData`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar, Self

MAX_BYTES = 64
# Ids fit SQLite's signed 64-bit integers with room to spare; nodes and digests are small.
MAX_ID = 10**15
NUMBER = re.compile(r"-?[0-9]{1,16}", re.ASCII)
# A draft's choices; an amendment's start with the rule's number (`a12.`); `!` or `>` confirms.
DRAFT_CODE = re.compile(r"(a[0-9]{1,6}\.)?[0-9a-z]{0,40}[!>]?", re.ASCII)
KEY = re.compile(r"[A-Za-z0-9_]{1,40}(:[A-Za-z0-9_]{1,20}){0,3}", re.ASCII)
GAME_NAME = re.compile(r"[a-z][a-z0-9_]{0,30}", re.ASCII)
LANGUAGE = re.compile(r"[a-z]{2}", re.ASCII)


class BadCallbackData(ValueError):
    pass


def _fit(data: str) -> str:
    if len(data.encode()) > MAX_BYTES:
        raise BadCallbackData(f"callback data over {MAX_BYTES} bytes")
    return data


def _int(text: str, low: int = 0, high: int = MAX_ID) -> int:
    if not NUMBER.fullmatch(text):
        raise BadCallbackData(f"not a number: {text[:20]!r}")
    value = int(text)
    if not low <= value <= high:
        raise BadCallbackData(f"out of range: {value}")
    return value


def _parts(data: object, kind: str, count: int) -> list[str]:
    if not isinstance(data, str) or not data or len(data.encode()) > MAX_BYTES:
        raise BadCallbackData("empty or over-long callback data")
    head, _, rest = data.partition(":")
    parts = rest.split(":") if rest else []
    if head != kind or len(parts) != count:
        raise BadCallbackData(f"not {kind} data")
    return parts


class _Data:
    KIND: ClassVar[str]

    @classmethod
    def parse(cls, data: object) -> Self:
        raise NotImplementedError

    @classmethod
    def matches(cls, data: object) -> bool:
        """For CallbackQueryHandler(pattern=...): this handler's kind, well formed."""
        try:
            cls.parse(data)
        except BadCallbackData:
            return False
        return True


@dataclass(frozen=True)
class TreeNode(_Data):
    """A node of a player's action tree: `T:table:keyboard:node` (a negative node confirms it)."""

    KIND: ClassVar[str] = "T"
    table_id: int
    keyboard: int
    node: int

    def encode(self) -> str:
        return _fit(f"T:{self.table_id}:{self.keyboard}:{self.node}")

    @classmethod
    def parse(cls, data: object) -> TreeNode:
        table, keyboard, node = _parts(data, cls.KIND, 3)
        return cls(_int(table, 1), _int(keyboard), _int(node, -(10**6), 10**6))


@dataclass(frozen=True)
class TableButton(_Data):
    """A button on the group table that any player may press: `P:table:version:key`."""

    KIND: ClassVar[str] = "P"
    table_id: int
    version: int
    key: str

    def encode(self) -> str:
        return _fit(f"P:{self.table_id}:{self.version}:{self.key}")

    @classmethod
    def parse(cls, data: object) -> TableButton:
        if not isinstance(data, str) or len(data.encode()) > MAX_BYTES:
            raise BadCallbackData("not table-button data")
        parts = data.split(":", 3)
        if len(parts) != 4 or parts[0] != cls.KIND or not KEY.fullmatch(parts[3]):
            raise BadCallbackData("not table-button data")
        return cls(_int(parts[1], 1), _int(parts[2]), parts[3])


@dataclass(frozen=True)
class RuleDraft(_Data):
    """Lopti's rule builder: `B:table:version:code`, one character per choice, `!` to confirm
    (see rule_builder.DraftCode)."""

    KIND: ClassVar[str] = "B"
    table_id: int
    version: int
    code: str

    def encode(self) -> str:
        return _fit(f"B:{self.table_id}:{self.version}:{self.code}")

    @classmethod
    def parse(cls, data: object) -> RuleDraft:
        table, version, code = _parts(data, cls.KIND, 3)
        if not DRAFT_CODE.fullmatch(code):
            raise BadCallbackData("not a draft code")
        return cls(_int(table, 1), _int(version), code)


@dataclass(frozen=True)
class _TableOp(_Data):
    """An operation on a table: `KIND:table:op`, op among the class's OPS."""

    OPS: ClassVar[tuple[str, ...]]
    table_id: int
    op: str

    def encode(self) -> str:
        return _fit(f"{self.KIND}:{self.table_id}:{self.op}")

    @classmethod
    def parse(cls, data: object) -> Self:
        table, op = _parts(data, cls.KIND, 2)
        if op not in cls.OPS:
            raise BadCallbackData(f"unknown {cls.__name__} operation")
        return cls(_int(table, 1), op)


@dataclass(frozen=True)
class LobbyOp(_TableOp):
    """A lobby button: `L:table:op`, op in leave/start/cancel, agree/refuse for consent, and
    add_bot/drop_bot for computer players."""

    KIND: ClassVar[str] = "L"
    OPS: ClassVar[tuple[str, ...]] = ("leave", "start", "cancel", "agree", "refuse", "add_bot", "drop_bot")


@dataclass(frozen=True)
class ArenaOp(_TableOp):
    """An arena night's button: `A:arena:op`, op in start (the group's message), pause and back
    (the player's private chat)."""

    KIND: ClassVar[str] = "A"
    OPS: ClassVar[tuple[str, ...]] = ("start", "pause", "back")


@dataclass(frozen=True)
class LeaveTable(_TableOp):
    """Leaving a running match: `X:table:ask` (the hand's button), then `yes` or `no`."""

    KIND: ClassVar[str] = "X"
    OPS: ClassVar[tuple[str, ...]] = ("ask", "yes", "no")


@dataclass(frozen=True)
class PickGame(_Data):
    """The game picker under /newgame: `N:game`."""

    KIND: ClassVar[str] = "N"
    game: str

    def encode(self) -> str:
        return _fit(f"N:{self.game}")

    @classmethod
    def parse(cls, data: object) -> PickGame:
        (game,) = _parts(data, cls.KIND, 1)
        if not GAME_NAME.fullmatch(game):
            raise BadCallbackData("not a game name")
        return cls(game)


@dataclass(frozen=True)
class PickLanguage(_Data):
    """`/language` buttons: `G:code`."""

    KIND: ClassVar[str] = "G"
    language: str

    def encode(self) -> str:
        return _fit(f"G:{self.language}")

    @classmethod
    def parse(cls, data: object) -> PickLanguage:
        (language,) = _parts(data, cls.KIND, 1)
        if not LANGUAGE.fullmatch(language):
            raise BadCallbackData("not a language code")
        return cls(language)


@dataclass(frozen=True)
class PlayAgain(_Data):
    """After a match: `A:table`."""

    KIND: ClassVar[str] = "A"
    table_id: int

    def encode(self) -> str:
        return _fit(f"A:{self.table_id}")

    @classmethod
    def parse(cls, data: object) -> PlayAgain:
        (table,) = _parts(data, cls.KIND, 1)
        return cls(_int(table, 1))


GUIDE = "guide"


@dataclass(frozen=True)
class HowTo(_Data):
    """How to play a game: `H:game` (its short summary) or `H:game:guide` (its full guide)."""

    KIND: ClassVar[str] = "H"
    game: str
    full: bool = False

    def encode(self) -> str:
        return _fit(f"H:{self.game}:{GUIDE}" if self.full else f"H:{self.game}")

    @classmethod
    def parse(cls, data: object) -> HowTo:
        full = isinstance(data, str) and data.count(":") == 2
        parts = _parts(data, cls.KIND, 2 if full else 1)
        if not GAME_NAME.fullmatch(parts[0]) or (full and parts[1] != GUIDE):
            raise BadCallbackData("not how-to data")
        return cls(parts[0], full)


@dataclass(frozen=True)
class MatchReplay(_Data):
    """A /history button: `R:table`, the replay file of that finished match."""

    KIND: ClassVar[str] = "R"
    table_id: int

    def encode(self) -> str:
        return _fit(f"R:{self.table_id}")

    @classmethod
    def parse(cls, data: object) -> MatchReplay:
        (table,) = _parts(data, cls.KIND, 1)
        return cls(_int(table, 1))


@dataclass(frozen=True)
class ForgetMe(_Data):
    """/forget's confirmation: `F:yes` forgets the presser, `F:no` keeps everything."""

    KIND: ClassVar[str] = "F"
    confirmed: bool

    def encode(self) -> str:
        return _fit(f"F:{'yes' if self.confirmed else 'no'}")

    @classmethod
    def parse(cls, data: object) -> ForgetMe:
        (answer,) = _parts(data, cls.KIND, 1)
        if answer not in ("yes", "no"):
            raise BadCallbackData("not a /forget answer")
        return cls(answer == "yes")


KINDS: tuple[type[_Data], ...] = (
    TreeNode, TableButton, RuleDraft, LobbyOp, LeaveTable, PickGame, PickLanguage, PlayAgain, HowTo, MatchReplay,
    ForgetMe,
)  # fmt: skip


def decode(data: object) -> _Data:
    """Parse any callback data we produce; raise BadCallbackData for anything else."""
    for kind in KINDS:
        if isinstance(data, str) and data.startswith(kind.KIND + ":"):
            return kind.parse(data)
    raise BadCallbackData("unknown callback data")


# ----- deep links (`/start PAYLOAD`) -----------------------------------------------------------
JOIN_LINK = re.compile(r"j([0-9]{1,15})_([0-9a-f]{12})", re.ASCII)
HAND_LINK = re.compile(r"h([0-9]{1,15})", re.ASCII)
ARENA_LINK = re.compile(r"a([0-9]{1,15})_([0-9a-f]{12})", re.ASCII)
# How to play a game (in a group's language), from a group where the presser's private chat was not open yet.
HOWTO_LINK = re.compile(r"(how|guide)-([a-z]{2})-([a-z][a-z0-9_]{0,30})", re.ASCII)


@dataclass(frozen=True)
class JoinLink:
    table_id: int
    token: str


@dataclass(frozen=True)
class ArenaLink:
    """Joining an arena night: `a<arena>_<token>`."""

    arena_id: int
    token: str

    def payload(self) -> str:
        return f"a{self.arena_id}_{self.token}"


@dataclass(frozen=True)
class HandLink:
    table_id: int


@dataclass(frozen=True)
class HowToLink:
    game: str
    full: bool
    language: str

    def payload(self) -> str:
        return f"{'guide' if self.full else 'how'}-{self.language}-{self.game}"


# The Mini App's start parameter of a group's 👀 Watch link: the table and its join token
# (docs/DECISIONS.md, "Watching").
WATCH_LINK = re.compile(r"w([1-9][0-9]{0,14})_([0-9a-f]{12})", re.ASCII)


@dataclass(frozen=True)
class WatchLink:
    table_id: int
    token: str

    def payload(self) -> str:
        return f"w{self.table_id}_{self.token}"


def parse_watch(param: str | None) -> WatchLink | None:
    """The table a Mini App start parameter asks to watch (its token is the table's to check)."""
    found = WATCH_LINK.fullmatch(param) if param else None
    return WatchLink(int(found.group(1)), found.group(2)) if found else None


def parse_start(payload: str) -> JoinLink | ArenaLink | HandLink | HowToLink | None:
    """What a /start payload asks for; None for a plain start or anything we did not make."""
    found = JOIN_LINK.fullmatch(payload)
    if found:
        return JoinLink(int(found.group(1)), found.group(2))
    found = ARENA_LINK.fullmatch(payload)
    if found:
        return ArenaLink(int(found.group(1)), found.group(2))
    found = HAND_LINK.fullmatch(payload)
    if found:
        return HandLink(int(found.group(1)))
    found = HOWTO_LINK.fullmatch(payload)
    if found:
        return HowToLink(found.group(3), found.group(1) == "guide", found.group(2))
    return None
