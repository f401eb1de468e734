"""Fresh databases for the whole-path benchmarks (bench_bot.py, bench_miniapp.py, bench_ceiling.py):
an SQLite file in a temporary folder, or a new PostgreSQL database on a throwaway server started
for the run (tests/postgres_server.py) or on the server at a given URL.

`--db` names the store: `sqlite` (the default), `postgresql` (a throwaway server) or a
`postgresql://` URL (each run gets a database of its own on that server: the URL's user must be
allowed to create databases).
"""

from __future__ import annotations

import asyncio
import itertools
import os
import shutil
import sqlite3
import tempfile
from pathlib import Path

import asyncpg

from tables.database import is_postgresql
from tests.postgres_server import PostgresServer


class Stores:
    def __init__(self, db: str = "sqlite"):
        self.db = db
        self.server: PostgresServer | None = None
        self.folder = Path(tempfile.mkdtemp(prefix="karata-bench-"))
        self._names = itertools.count(1)

    @property
    def kind(self) -> str:
        return "sqlite" if self.db == "sqlite" else "postgresql"

    def __enter__(self) -> Stores:
        if self.db == "postgresql":
            self.server = PostgresServer()
            if self.server.unavailable is None:
                self.server.start()
            if self.server.unavailable:
                raise SystemExit(f"no PostgreSQL: {self.server.unavailable}")
        return self

    def __exit__(self, *_: object) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)
        if self.server is not None:
            self.server.stop()

    async def fresh(self) -> str:
        """A new, empty database's target (a file path or a URL)."""
        if self.db == "sqlite":
            return str(self.folder / f"karata-{next(self._names)}.db")
        if self.server is not None:
            return await asyncio.to_thread(self.server.new_database)
        name = f"karata_bench_{os.getpid()}_{next(self._names)}"
        connection = await asyncpg.connect(self.db)
        try:
            await connection.execute(f'CREATE DATABASE "{name}"')
        finally:
            await connection.close()
        return f"{self.db.rsplit('/', 1)[0]}/{name}"


async def committed_moves(target: str) -> int:
    """Actions committed so far in the database at `target`."""
    if is_postgresql(target):
        connection = await asyncpg.connect(target)
        try:
            return await connection.fetchval("SELECT COUNT(*) FROM actions")
        finally:
            await connection.close()
    with sqlite3.connect(target) as db:
        return db.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
