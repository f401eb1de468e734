"""SQLite storage (aiosqlite, WAL) for chats, users, tables, the action log and hand messages.

Schema changes are numbered migrations applied in order at start-up; `PRAGMA user_version`
records how far a database has come. A table row carries its engine state and a version that
grows by one with each applied action, so a move is committed before anyone sees its result.
"""

from __future__ import annotations

import asyncio
import functools
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import aiosqlite

MIGRATIONS: Sequence[str] = (
    # 1: the first schema
    """
    CREATE TABLE chats (
        chat_id INTEGER PRIMARY KEY,
        language TEXT,
        title TEXT
    );
    CREATE TABLE users (
        user_id INTEGER PRIMARY KEY,
        first_name TEXT NOT NULL,
        language TEXT,
        language_chosen INTEGER NOT NULL DEFAULT 0,
        dm_ok INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE tables (
        table_id INTEGER PRIMARY KEY AUTOINCREMENT,
        chat_id INTEGER NOT NULL,
        thread_id INTEGER NOT NULL DEFAULT 0,
        game TEXT NOT NULL,
        status TEXT NOT NULL,
        creator_id INTEGER NOT NULL,
        options TEXT NOT NULL,
        turn_seconds INTEGER NOT NULL,
        seats TEXT NOT NULL,
        seed TEXT NOT NULL,
        state TEXT,
        version INTEGER NOT NULL DEFAULT 0,
        table_message_id INTEGER,
        deadline REAL,
        deadline_version INTEGER,
        warned INTEGER NOT NULL DEFAULT 0,
        recent_events TEXT NOT NULL DEFAULT '[]',
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    -- One live table per chat and forum topic; finished ones stay for the record.
    CREATE UNIQUE INDEX one_live_table ON tables(chat_id, thread_id)
        WHERE status IN ('lobby', 'playing');
    CREATE TABLE actions (
        table_id INTEGER NOT NULL REFERENCES tables(table_id),
        version INTEGER NOT NULL,
        player TEXT NOT NULL,
        action TEXT NOT NULL,
        applied_at REAL NOT NULL,
        PRIMARY KEY (table_id, version)
    );
    CREATE TABLE hand_messages (
        table_id INTEGER NOT NULL REFERENCES tables(table_id),
        user_id INTEGER NOT NULL,
        message_id INTEGER NOT NULL,
        PRIMARY KEY (table_id, user_id)
    );
    """,
    # 2: consent to options that every player must accept before the deal (Kadi's hiding mode)
    """
    ALTER TABLE tables ADD COLUMN consents TEXT;
    """,
    # 3: a short pause between rounds, while the group reads the round's results
    """
    ALTER TABLE tables ADD COLUMN paused_until REAL;
    """,
    # 4: group polls (Lopti's Rule Votes): which table and question a Telegram poll belongs to
    """
    CREATE TABLE polls (
        poll_id TEXT PRIMARY KEY,
        table_id INTEGER NOT NULL REFERENCES tables(table_id),
        key TEXT NOT NULL,
        chat_id INTEGER NOT NULL,
        message_id INTEGER NOT NULL,
        open INTEGER NOT NULL DEFAULT 1
    );
    CREATE INDEX polls_of_table ON polls(table_id, open);
    """,
)


@dataclass
class Seat:
    user_id: int
    name: str

    @property
    def player(self) -> str:
        # Engine players are strings; the Telegram user id is unique and stable.
        return str(self.user_id)


@dataclass
class TableRow:
    table_id: int
    chat_id: int
    thread_id: int
    game: str
    status: str
    creator_id: int
    options: dict[str, Any]
    turn_seconds: int
    seats: list[Seat]
    seed: str
    state: str | None = None
    version: int = 0
    table_message_id: int | None = None
    deadline: float | None = None
    deadline_version: int | None = None
    warned: bool = False
    # Until this time the next round is not shown and presses wait (epoch seconds).
    paused_until: float | None = None
    # While options await everyone's consent: user id (as text) -> agreed; None otherwise.
    consents: dict[str, bool] | None = None
    # The last few events as spectators see them, for the table message's log lines.
    recent_events: list[dict[str, Any]] = field(default_factory=list)
    created_at: float = field(default_factory=time.time)
    updated_at: float = field(default_factory=time.time)

    def seat_of(self, user_id: int) -> Seat | None:
        return next((seat for seat in self.seats if seat.user_id == user_id), None)


@dataclass
class UserRow:
    user_id: int
    first_name: str
    language: str | None
    language_chosen: bool
    dm_ok: bool


def _table_from_row(row: aiosqlite.Row) -> TableRow:
    return TableRow(
        table_id=row["table_id"],
        chat_id=row["chat_id"],
        thread_id=row["thread_id"],
        game=row["game"],
        status=row["status"],
        creator_id=row["creator_id"],
        options=json.loads(row["options"]),
        turn_seconds=row["turn_seconds"],
        seats=[Seat(**seat) for seat in json.loads(row["seats"])],
        seed=row["seed"],
        state=row["state"],
        version=row["version"],
        table_message_id=row["table_message_id"],
        deadline=row["deadline"],
        deadline_version=row["deadline_version"],
        warned=bool(row["warned"]),
        recent_events=json.loads(row["recent_events"]),
        consents=json.loads(row["consents"]) if row["consents"] else None,
        paused_until=row["paused_until"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


def _serialized(method):
    """One connection is shared by all coroutines: writes take turns so that one write's
    commit never commits another's half-done transaction."""

    @functools.wraps(method)
    async def wrapper(self: Store, *args: Any, **kwargs: Any) -> Any:
        async with self._write_lock:
            return await method(self, *args, **kwargs)

    return wrapper


class Store:
    def __init__(self, path: str):
        self.path = path
        self._db: aiosqlite.Connection | None = None
        self._write_lock = asyncio.Lock()

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("Store is not open")
        return self._db

    async def open(self) -> None:
        self._db = await aiosqlite.connect(self.path)
        self._db.row_factory = aiosqlite.Row
        await self._db.execute("PRAGMA journal_mode=WAL")
        await self._db.execute("PRAGMA foreign_keys=ON")
        await self.migrate()

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

    async def migrate(self) -> None:
        async with self.db.execute("PRAGMA user_version") as cursor:
            (current,) = await cursor.fetchone()
        for number, script in enumerate(MIGRATIONS, start=1):
            if number <= current:
                continue
            await self.db.executescript(f"BEGIN; {script}; PRAGMA user_version = {number}; COMMIT;")

    # ----- chats and users ----------------------------------------------------------------
    async def chat_language(self, chat_id: int) -> str | None:
        async with self.db.execute("SELECT language FROM chats WHERE chat_id = ?", (chat_id,)) as cursor:
            row = await cursor.fetchone()
        return row["language"] if row else None

    @_serialized
    async def set_chat_language(self, chat_id: int, language: str) -> None:
        await self.db.execute(
            "INSERT INTO chats (chat_id, language) VALUES (?, ?) "
            "ON CONFLICT(chat_id) DO UPDATE SET language = excluded.language",
            (chat_id, language),
        )
        await self.db.commit()

    async def get_user(self, user_id: int) -> UserRow | None:
        async with self.db.execute("SELECT * FROM users WHERE user_id = ?", (user_id,)) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return None
        return UserRow(row["user_id"], row["first_name"], row["language"], bool(row["language_chosen"]), bool(row["dm_ok"]))

    async def remember_user(self, user_id: int, first_name: str, telegram_language: str | None) -> UserRow:
        """Record a user seen in an update; Telegram's language only until they choose one."""
        await self._upsert_user(user_id, first_name, telegram_language)
        user = await self.get_user(user_id)
        assert user is not None
        return user

    @_serialized
    async def _upsert_user(self, user_id: int, first_name: str, telegram_language: str | None) -> None:
        await self.db.execute(
            "INSERT INTO users (user_id, first_name, language) VALUES (?, ?, ?) "
            "ON CONFLICT(user_id) DO UPDATE SET first_name = excluded.first_name, "
            "language = CASE WHEN users.language_chosen THEN users.language ELSE excluded.language END",
            (user_id, first_name, telegram_language),
        )
        await self.db.commit()

    @_serialized
    async def set_user_language(self, user_id: int, language: str) -> None:
        await self.db.execute(
            "UPDATE users SET language = ?, language_chosen = 1 WHERE user_id = ?", (language, user_id)
        )
        await self.db.commit()

    @_serialized
    async def set_dm_ok(self, user_id: int, ok: bool) -> None:
        await self.db.execute("UPDATE users SET dm_ok = ? WHERE user_id = ?", (int(ok), user_id))
        await self.db.commit()

    # ----- tables -------------------------------------------------------------------------
    @_serialized
    async def create_table(self, table: TableRow) -> TableRow:
        cursor = await self.db.execute(
            "INSERT INTO tables (chat_id, thread_id, game, status, creator_id, options, turn_seconds, seats, "
            "seed, state, version, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                table.chat_id,
                table.thread_id,
                table.game,
                table.status,
                table.creator_id,
                json.dumps(table.options),
                table.turn_seconds,
                json.dumps([seat.__dict__ for seat in table.seats]),
                table.seed,
                table.state,
                table.version,
                table.created_at,
                table.updated_at,
            ),
        )
        await self.db.commit()
        table.table_id = cursor.lastrowid  # type: ignore[assignment]
        return table

    async def get_table(self, table_id: int) -> TableRow | None:
        async with self.db.execute("SELECT * FROM tables WHERE table_id = ?", (table_id,)) as cursor:
            row = await cursor.fetchone()
        return _table_from_row(row) if row else None

    async def live_table(self, chat_id: int, thread_id: int) -> TableRow | None:
        async with self.db.execute(
            "SELECT * FROM tables WHERE chat_id = ? AND thread_id = ? AND status IN ('lobby', 'playing')",
            (chat_id, thread_id),
        ) as cursor:
            row = await cursor.fetchone()
        return _table_from_row(row) if row else None

    async def tables_with_deadlines(self) -> list[TableRow]:
        async with self.db.execute(
            "SELECT * FROM tables WHERE status = 'playing' AND (deadline IS NOT NULL OR paused_until IS NOT NULL)"
        ) as cursor:
            rows = await cursor.fetchall()
        return [_table_from_row(row) for row in rows]

    async def playing_tables(self) -> list[TableRow]:
        async with self.db.execute("SELECT * FROM tables WHERE status = 'playing'") as cursor:
            rows = await cursor.fetchall()
        return [_table_from_row(row) for row in rows]

    async def previous_session(self, chat_id: int, thread_id: int, game: str, before: int) -> TableRow | None:
        """The latest earlier table of this game in this chat that was played (for carrying over)."""
        async with self.db.execute(
            "SELECT * FROM tables WHERE chat_id = ? AND thread_id = ? AND game = ? AND table_id < ? "
            "AND state IS NOT NULL AND status IN ('finished', 'cancelled') ORDER BY table_id DESC LIMIT 1",
            (chat_id, thread_id, game, before),
        ) as cursor:
            row = await cursor.fetchone()
        return _table_from_row(row) if row else None

    async def idle_tables(self, before: float) -> list[TableRow]:
        async with self.db.execute(
            "SELECT * FROM tables WHERE status IN ('lobby', 'playing') AND updated_at < ?", (before,)
        ) as cursor:
            rows = await cursor.fetchall()
        return [_table_from_row(row) for row in rows]

    async def live_tables_of_user(self, user_id: int) -> list[TableRow]:
        async with self.db.execute("SELECT * FROM tables WHERE status IN ('lobby', 'playing')") as cursor:
            rows = await cursor.fetchall()
        tables = [_table_from_row(row) for row in rows]
        return [table for table in tables if table.seat_of(user_id)]

    @_serialized
    async def save_table(self, table: TableRow, action: tuple[str, dict[str, Any]] | None = None) -> None:
        """Write the table (and the action that produced its version) in one transaction."""
        table.updated_at = time.time()
        await self.db.execute("BEGIN")
        try:
            await self.db.execute(
                "UPDATE tables SET status = ?, options = ?, turn_seconds = ?, seats = ?, state = ?, version = ?, "
                "table_message_id = ?, deadline = ?, deadline_version = ?, warned = ?, recent_events = ?, "
                "consents = ?, paused_until = ?, updated_at = ? WHERE table_id = ?",
                (
                    table.status,
                    json.dumps(table.options),
                    table.turn_seconds,
                    json.dumps([seat.__dict__ for seat in table.seats]),
                    table.state,
                    table.version,
                    table.table_message_id,
                    table.deadline,
                    table.deadline_version,
                    int(table.warned),
                    json.dumps(table.recent_events),
                    json.dumps(table.consents) if table.consents is not None else None,
                    table.paused_until,
                    table.updated_at,
                    table.table_id,
                ),
            )
            if action is not None:
                player, move = action
                await self.db.execute(
                    "INSERT INTO actions (table_id, version, player, action, applied_at) VALUES (?, ?, ?, ?, ?)",
                    (table.table_id, table.version, player, json.dumps(move), table.updated_at),
                )
            await self.db.commit()
        except BaseException:
            await self.db.rollback()
            raise

    @_serialized
    async def set_table_message(self, table_id: int, message_id: int) -> None:
        await self.db.execute("UPDATE tables SET table_message_id = ? WHERE table_id = ?", (message_id, table_id))
        await self.db.commit()

    async def actions_of(self, table_id: int) -> list[tuple[int, str, dict[str, Any]]]:
        async with self.db.execute(
            "SELECT version, player, action FROM actions WHERE table_id = ? ORDER BY version", (table_id,)
        ) as cursor:
            rows = await cursor.fetchall()
        return [(row["version"], row["player"], json.loads(row["action"])) for row in rows]

    # ----- polls --------------------------------------------------------------------------
    @_serialized
    async def add_poll(self, poll_id: str, table_id: int, key: str, chat_id: int, message_id: int) -> None:
        await self.db.execute(
            "INSERT INTO polls (poll_id, table_id, key, chat_id, message_id) VALUES (?, ?, ?, ?, ?)",
            (poll_id, table_id, key, chat_id, message_id),
        )
        await self.db.commit()

    async def open_poll(self, table_id: int) -> aiosqlite.Row | None:
        async with self.db.execute("SELECT * FROM polls WHERE table_id = ? AND open = 1", (table_id,)) as cursor:
            return await cursor.fetchone()

    async def poll(self, poll_id: str) -> aiosqlite.Row | None:
        async with self.db.execute("SELECT * FROM polls WHERE poll_id = ?", (poll_id,)) as cursor:
            return await cursor.fetchone()

    @_serialized
    async def close_poll(self, poll_id: str) -> None:
        await self.db.execute("UPDATE polls SET open = 0 WHERE poll_id = ?", (poll_id,))
        await self.db.commit()

    # ----- private hand messages ----------------------------------------------------------
    async def hand_message(self, table_id: int, user_id: int) -> int | None:
        async with self.db.execute(
            "SELECT message_id FROM hand_messages WHERE table_id = ? AND user_id = ?", (table_id, user_id)
        ) as cursor:
            row = await cursor.fetchone()
        return row["message_id"] if row else None

    @_serialized
    async def set_hand_message(self, table_id: int, user_id: int, message_id: int | None) -> None:
        if message_id is None:
            await self.db.execute(
                "DELETE FROM hand_messages WHERE table_id = ? AND user_id = ?", (table_id, user_id)
            )
        else:
            await self.db.execute(
                "INSERT INTO hand_messages (table_id, user_id, message_id) VALUES (?, ?, ?) "
                "ON CONFLICT(table_id, user_id) DO UPDATE SET message_id = excluded.message_id",
                (table_id, user_id, message_id),
            )
        await self.db.commit()
