"""The records the table service keeps: seats, tables, users, and what a request came to.

A table row carries its engine state (JSON) and a version that grows by one with each applied
action. Besides the state it keeps what the messages shown for it are derived from and that the
state does not hold: the last events, each player's private note, the events that closed the
last round, who was nudged, whose private chat failed. Everything a renderer needs is here, so
what a chat shows is a pure function of the committed row.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field, fields
from typing import Any, TypedDict

from engine.core.protocol import Game, State

# Table statuses: open for joining, being played, and the two ends (the record stays).
LOBBY = "lobby"
PLAYING = "playing"
FINISHED = "finished"
CANCELLED = "cancelled"
LIVE = (LOBBY, PLAYING)
# Why a table closed: the bot can no longer write in its chat (removed, muted, the group deleted).
CHAT_LOST = "chat_lost"


# Computer players sit with negative user ids (records list them apart: tables/records.py); the
# level is in the id, so that each level keeps its own record.
COMPUTER_NAMES = ("Juma", "Amani", "Neema", "Zawadi", "Imani", "Tumaini", "Jabari")
COMPUTER_LEVELS = ("easy", "strong")
COMPUTER_IDS = {"easy": -100, "strong": -200}
ROBOT = "🤖"
# Seats of people who asked to be forgotten (tables/privacy.py) sit with ids from here up:
# above every Telegram user id (at most 52 bits), never a person's.
ANONYMOUS_FROM = 1 << 53


@dataclass
class Seat:
    user_id: int
    name: str
    # A computer that took over the seat of a player who left plays on as that engine player.
    plays_for: str | None = None

    @property
    def player(self) -> str:
        # Engine players are strings; the Telegram user id is unique and stable.
        return self.plays_for if self.plays_for is not None else str(self.user_id)

    @property
    def is_computer(self) -> bool:
        return self.user_id < 0

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"user_id": self.user_id, "name": self.name}
        if self.plays_for is not None:
            data["plays_for"] = self.plays_for
        return data


def computer_seat(level: str, taken: list[Seat], plays_for: str | None = None) -> Seat | None:
    """The first computer player of `level` not yet at the table (None when all are)."""
    used = {seat.user_id for seat in taken}
    for index, name in enumerate(COMPUTER_NAMES):
        user_id = COMPUTER_IDS[level] - index - 1
        if user_id not in used:
            return Seat(user_id, f"{ROBOT} {name}", plays_for)
    return None


@dataclass(frozen=True)
class Column:
    """How a table row's field is stored: the row's fields are its columns (the migrations in
    tables/store.py build them, and tests/tables/test_table_columns.py holds the two together).

    `kind`: "value" as it is, "json" (JSON text, None stays NULL), "flag" (0 or 1), "seats".
    `fixed`: written once, when the table is created. `players`: JSON text in which a player
    appears as the string of their user id (/forget replaces it: tables/privacy.py)."""

    kind: str = "value"
    fixed: bool = False
    players: bool = False

    def dump(self, value: Any) -> Any:
        if self.kind == "seats":
            return json.dumps([seat.to_json() for seat in value])
        if self.kind == "json":
            return None if value is None else json.dumps(value)
        if self.kind == "flag":
            return int(value)
        return value

    def load(self, stored: Any) -> Any:
        if self.kind == "seats":
            return [Seat(**seat) for seat in json.loads(stored)]
        if self.kind == "json":
            return json.loads(stored) if stored else None
        if self.kind == "flag":
            return bool(stored)
        return stored


def _stored(kind: str = "value", *, fixed: bool = False, players: bool = False, **options: Any) -> Any:
    return field(metadata={"column": Column(kind, fixed, players)}, **options)


class Note(TypedDict):
    """A player's private lines of their latest move: its round, and its events as they see them."""

    round: int
    events: list[dict[str, Any]]


@dataclass
class TableRow:
    table_id: int = _stored(fixed=True)
    chat_id: int = _stored(fixed=True)
    thread_id: int = _stored(fixed=True)
    game: str = _stored(fixed=True)
    status: str = _stored()
    creator_id: int = _stored()
    options: dict[str, Any] = _stored("json")
    turn_seconds: int = _stored()
    seats: list[Seat] = _stored("seats")
    seed: str = _stored(fixed=True)
    state: str | None = _stored(players=True, default=None)
    # The game's version: one more with each applied action (buttons of the table carry it).
    version: int = _stored(default=0)
    # One more with every saved change, moves or not: the publisher has published a table when
    # its messages show its latest revision.
    revision: int = _stored(default=0)
    # The turn deadline (epoch seconds) and the length it was armed with, so that a restart
    # arms the same length again. (The database's old `deadline_version` column went in migration 10.)
    deadline: float | None = _stored(default=None)
    deadline_seconds: float | None = _stored(default=None)
    warned: bool = _stored("flag", default=False)
    # Until this time the next round is not shown and presses wait (epoch seconds).
    paused_until: float | None = _stored(default=None)
    # While options await everyone's consent: user id (as text) -> agreed; None otherwise.
    consents: dict[str, bool] | None = _stored("json", players=True, default=None)
    # The last few events as spectators see them, for the table message's log lines.
    recent_events: list[dict[str, Any]] = _stored("json", players=True, default_factory=list)
    # Windows the clock closes besides the turn (a Rule Vote): kind -> [due epoch, armed seconds].
    windows: dict[str, list[float]] = _stored("json", players=True, default_factory=dict)
    # Each player's private lines of their latest move ("You drew 7♥"), until they act again.
    notes: dict[str, Note] = _stored("json", players=True, default_factory=dict)
    # The spectator events of the latest move: {"round", "version", "events"}; the round's results
    # are posted from them when the move closed a round.
    round_events: dict[str, Any] | None = _stored("json", players=True, default=None)
    # Players who were sent a "your turn" nudge that still stands.
    nudged: list[str] = _stored("json", players=True, default_factory=list)
    # Players whose private chat refused the bot's messages (the group is told).
    unreachable: list[int] = _stored("json", players=True, default_factory=list)
    # Why a table stopped before its match ended: "cancelled", "empty" or "session_ended".
    closed_reason: str | None = _stored(default=None)
    # The secret part of the Join link: table ids are small and sequential, tokens are not.
    join_token: str = _stored(default="")
    # The first dealer and decks given to the engine when they did not come from the seed (a
    # fixed deal in tests and demos): {"dealer", "decks"}, so that a replay deals the same.
    deal: dict[str, Any] | None = _stored("json", players=True, default=None)
    # Computer players: their level ("easy" or "strong"), whether one moves for a player who ran
    # out of time (instead of the game's timeout move), and whether the table waits for one now.
    level: str = _stored(default="strong")
    stand_in: bool = _stored("flag", default=False)
    computer_turn: bool = _stored("flag", default=False)
    created_at: float = _stored(fixed=True, default_factory=time.time)
    updated_at: float = _stored(default_factory=time.time)
    # The bot of a fleet that opened the table (its token's number), the only one that acts on it.
    bot_id: int = _stored(fixed=True, default=0)
    # The arena night the table was seated by (tables/arena_nights.py); None for a table of its own.
    arena_id: int | None = _stored(fixed=True, default=None)

    def seat_of(self, user_id: int) -> Seat | None:
        return next((seat for seat in self.seats if seat.user_id == user_id), None)

    @property
    def players(self) -> list[str]:
        return [seat.player for seat in self.seats]

    @property
    def names(self) -> dict[str, str]:
        return {seat.player: seat.name for seat in self.seats}

    @property
    def computers(self) -> list[str]:
        """The engine players a computer plays."""
        return [seat.player for seat in self.seats if seat.is_computer]

    @property
    def humans(self) -> list[Seat]:
        return [seat for seat in self.seats if not seat.is_computer]

    @property
    def leavers(self) -> list[int]:
        """Users who left the running match (a computer took their seat)."""
        return [int(seat.plays_for) for seat in self.seats if seat.plays_for is not None and seat.plays_for.isdigit()]


# A table row's columns, in the dataclass's order: every field is one.
TABLE_COLUMNS: dict[str, Column] = {item.name: item.metadata["column"] for item in fields(TableRow)}


@dataclass
class UserRow:
    user_id: int
    first_name: str
    language: str | None
    language_chosen: bool
    dm_ok: bool


@dataclass
class Loaded:
    """A table as committed: the row, its game and its engine state (None in the lobby)."""

    table: TableRow
    game: Game
    state: State | None


@dataclass
class Outcome:
    """What happened to a request: applied, or refused with a stable code for the renderer."""

    ok: bool
    code: str | None = None
    message: str | None = None
    table: TableRow | None = None
    values: dict[str, Any] = field(default_factory=dict)
    # The request had already been applied (a press redelivered after a crash).
    repeated: bool = False
    # The action the chooser picked under the table's lock (applied, or refused by the engine).
    action: dict[str, Any] | None = None
    # The table as the request left it (committed), when it was applied or chose to play nothing.
    loaded: Loaded | None = None

    @classmethod
    def refused(cls, code: str, message: str = "", table: TableRow | None = None, **values: Any) -> Outcome:
        return cls(False, code, message, table, values)


@dataclass
class Shown:
    """What one message of a table shows now: its chat, its id, and a digest of its content."""

    chat_id: int
    message_id: int | None
    digest: str
