"""Callback data: short `KIND:field:field` strings that fit Telegram's 64 bytes.

In-game buttons carry the table, the state version they were drawn for, and a node of the
action tree (see action_tree.py), never a card or rule the server would trust: the server
rebuilds the legal actions for that version and looks the node up, so forged or stale data
can only select something legal now, or be refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_BYTES = 64
DRAFT_CODE = re.compile(r"[0-9a-z]*!?")


class BadCallbackData(ValueError):
    pass


@dataclass(frozen=True)
class TreeNode:
    """A node of a player's action tree: `T:table:version:node`."""

    table_id: int
    version: int
    node: int

    def encode(self) -> str:
        return _fit(f"T:{self.table_id}:{self.version}:{self.node}")


@dataclass(frozen=True)
class LobbyOp:
    """A lobby button: `L:table:op`, op in leave/start/cancel, and agree/refuse for consent."""

    table_id: int
    op: str

    def encode(self) -> str:
        return _fit(f"L:{self.table_id}:{self.op}")


@dataclass(frozen=True)
class PickGame:
    """The game picker under /newgame: `N:game`."""

    game: str

    def encode(self) -> str:
        return _fit(f"N:{self.game}")


@dataclass(frozen=True)
class PickLanguage:
    """`/language` buttons: `G:code`."""

    language: str

    def encode(self) -> str:
        return _fit(f"G:{self.language}")


@dataclass(frozen=True)
class PlayAgain:
    """After a match: `A:table`."""

    table_id: int

    def encode(self) -> str:
        return _fit(f"A:{self.table_id}")


@dataclass(frozen=True)
class TableButton:
    """A button on the group table that any player may press: `P:table:version:key`."""

    table_id: int
    version: int
    key: str

    def encode(self) -> str:
        return _fit(f"P:{self.table_id}:{self.version}:{self.key}")


@dataclass(frozen=True)
class RuleDraft:
    """Lopti's rule builder: `B:table:version:code`, one character per choice, `!` to confirm."""

    table_id: int
    version: int
    code: str

    def encode(self) -> str:
        return _fit(f"B:{self.table_id}:{self.version}:{self.code}")


CallbackData = RuleDraft | TableButton | TreeNode | LobbyOp | PickGame | PickLanguage | PlayAgain

LOBBY_OPS = ("leave", "start", "cancel", "agree", "refuse")


def _fit(data: str) -> str:
    if len(data.encode()) > MAX_BYTES:
        raise BadCallbackData(f"callback data over {MAX_BYTES} bytes")
    return data


def _int(text: str) -> int:
    if not text.lstrip("-").isdigit() or len(text) > 19:
        raise BadCallbackData(f"not a number: {text!r}")
    return int(text)


def decode(data: str | None) -> CallbackData:
    """Parse callback data; raise BadCallbackData for anything we did not produce."""
    if not data or len(data.encode()) > MAX_BYTES:
        raise BadCallbackData("empty or over-long callback data")
    kind, _, rest = data.partition(":")
    parts = rest.split(":")
    if kind == "T" and len(parts) == 3:
        return TreeNode(_int(parts[0]), _int(parts[1]), _int(parts[2]))
    if kind == "P" and len(parts) >= 3 and all(part.replace("_", "").isalnum() for part in parts[2:]):
        return TableButton(_int(parts[0]), _int(parts[1]), ":".join(parts[2:]))
    if kind == "B" and len(parts) == 3 and DRAFT_CODE.fullmatch(parts[2]):
        return RuleDraft(_int(parts[0]), _int(parts[1]), parts[2])
    if kind == "L" and len(parts) == 2 and parts[1] in LOBBY_OPS:
        return LobbyOp(_int(parts[0]), parts[1])
    if kind == "N" and len(parts) == 1 and parts[0].isidentifier():
        return PickGame(parts[0])
    if kind == "G" and len(parts) == 1 and parts[0].isalpha():
        return PickLanguage(parts[0])
    if kind == "A" and len(parts) == 1:
        return PlayAgain(_int(parts[0]))
    raise BadCallbackData(f"unknown callback data {data!r}")
