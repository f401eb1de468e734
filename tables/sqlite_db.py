"""SQLite (aiosqlite, WAL): the default database, one file (tables/database.py).

One connection serves every coroutine; aiosqlite runs its calls on one thread. A transaction is
one trip to that thread and back: under load each trip waited for the busy event loop to let go
of the GIL, and a move's write took 4 ms at the median and 40 ms at p99 when each statement was
its own trip (docs/PERFORMANCE.md). So the transaction's async work runs on that thread to its
end without ever suspending: its statements are plain sqlite3 calls (`_run_now`).

What /forget deletes must leave the file (tables/privacy.py): deleted and overwritten rows' bytes
are zeroed (`secure_delete`), and after a forget `scrub` empties the write-ahead log, which still
holds the pages as they were.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, TypeVar

import aiosqlite

from tables.db_errors import counted
from tables.metrics import UNREAD
from tables.transaction import Transaction

log = logging.getLogger(__name__)

Result = TypeVar("Result")

SEATED = "EXISTS (SELECT 1 FROM json_each(tables.seats) AS seat WHERE json_extract(seat.value, '$.user_id') = ?)"


class SqliteTransaction:
    seated = SEATED

    def __init__(self, connection: sqlite3.Connection):
        self.connection = connection

    async def execute(self, sql: str, parameters: Sequence[Any] = ()) -> None:
        self.connection.execute(sql, parameters)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self.connection.executemany(sql, rows)

    async def fetchall(self, sql: str, parameters: Sequence[Any] = ()) -> list[Any]:
        return self.connection.execute(sql, parameters).fetchall()


def _run_now(work: Coroutine[Any, Any, Result]) -> Result:
    """Run a coroutine that never suspends (its awaits are SqliteTransaction's) to its end."""
    try:
        work.send(None)
    except StopIteration as done:
        return done.value
    work.close()
    raise RuntimeError("an SQLite transaction waited for something other than its own statements")


class SqliteDatabase:
    kind = "sqlite"
    seated = SEATED

    def __init__(self, path: str):
        self.path = path
        self._db: aiosqlite.Connection | None = None
        self.errors = UNREAD.database_errors

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("the database is not open")
        return self._db

    async def open(self, migrations: Sequence[str]) -> None:
        self._db = await aiosqlite.connect(self.path)
        self._db.row_factory = aiosqlite.Row
        await self._db.execute("PRAGMA journal_mode=WAL")
        # In WAL mode NORMAL loses nothing when the process dies (only on a power cut).
        await self._db.execute("PRAGMA synchronous=NORMAL")
        await self._db.execute("PRAGMA foreign_keys=ON")
        # Deleted and overwritten rows' bytes are zeroed, not left in free space: /forget must
        # leave no name in the file.
        await self._db.execute("PRAGMA secure_delete=ON")
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        assert row is not None  # PRAGMA user_version always answers one row
        (current,) = row
        for number, script in enumerate(migrations, start=1):
            if number > current:
                await self._db.executescript(f"BEGIN; {script}; PRAGMA user_version = {number}; COMMIT;")

    async def close(self) -> None:
        if self._db is not None:
            # aiosqlite's thread would keep the process alive after a failed start.
            await self._db.close()
            self._db = None

    async def all(self, sql: str, parameters: Sequence[Any] = ()) -> list[Any]:
        # Execute and fetch together: one trip to the database thread.
        return list(await self.db.execute_fetchall(sql, parameters))

    async def transaction(self, work: Callable[[SqliteTransaction], Coroutine[Any, Any, Result]]) -> Result:
        def run(connection: sqlite3.Connection) -> Result:
            with connection:  # commits, or rolls back on an error
                connection.execute("BEGIN")
                return _run_now(work(SqliteTransaction(connection)))

        db = self.db
        with counted(self.errors):
            # `_execute` is how aiosqlite runs every call on its thread (internal in 0.22.1, which
            # pyproject pins).
            return await db._execute(run, db._conn)

    async def execute(self, sql: str, parameters: Sequence[Any] = ()) -> None:
        async def write(transaction: SqliteTransaction) -> None:
            await transaction.execute(sql, parameters)

        await self.transaction(write)

    async def scrub(self) -> None:
        db = self.db
        await db._execute(scrub_log, db._conn)

    async def columns(self, table: str) -> list[str]:
        return [row[1] for row in await self.all(f"PRAGMA table_info({table})")]

    async def ids_follow_rows(self, transaction: Transaction) -> None:
        """Nothing to do: AUTOINCREMENT counts from the largest id ever inserted."""


def scrub_log(connection: sqlite3.Connection) -> None:
    """Copy the write-ahead log into the database file (its pages zeroed where the forget deleted)
    and truncate it to nothing. A reader that holds an old snapshot (a backup under way) can keep
    it from completing: the log line says so (the next forget, or the bot's stop, empties it)."""
    busy, _frames, _copied = connection.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    if busy:
        log.warning("after a /forget the database's log could not be emptied yet (a reader holds it)")
