"""The store's database behind one small interface: SQLite (a file, the default) or PostgreSQL
(a `postgresql://` URL), chosen by `KARATA_DB` (`connect`).

The store and the records write their SQL once, in the dialect both understand: `?` marks a
parameter, upserts say `ON CONFLICT`, and a match between a table's seats and a user is the
database's own `seated` condition (JSON functions differ). tables/sqlite_db.py runs it as it is;
tables/postgres_db.py numbers the parameters and widens the migrations' column types.

A write is a `transaction(work)`: `work` is an async function of a `Transaction` that runs in
one transaction, committed when it returns and rolled back when it raises. Every write that
fails (a transaction, or `execute`'s one statement) is counted by kind into `errors`
(tables/db_errors.py), the bot's `Metrics.database_errors` once the store is given the bot's
metrics, and raised on.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Sequence
from typing import Any, Protocol, TypeVar

from prometheus_client import Counter

from tables.transaction import Transaction

Result = TypeVar("Result")

POSTGRESQL_SCHEMES = ("postgresql://", "postgres://")


class Database(Protocol):
    kind: str  # "sqlite" or "postgresql"
    seated: str
    errors: Counter  # failed writes by kind (tables/db_errors.py)

    async def open(self, migrations: Sequence[str]) -> None: ...

    async def close(self) -> None: ...

    async def all(self, sql: str, parameters: Sequence[Any] = ()) -> list[Any]:
        """Every row (by name and by position) of a read outside any transaction."""

    # `work` is an async function: SQLite runs its coroutine to the end on the database's thread.
    async def transaction(self, work: Callable[[Transaction], Coroutine[Any, Any, Result]]) -> Result: ...

    async def execute(self, sql: str, parameters: Sequence[Any] = ()) -> None:
        """One statement, committed on its own."""

    async def scrub(self) -> None:
        """After /forget: what was deleted leaves the database's files too, where the database
        can make it (tables/privacy.py)."""

    async def columns(self, table: str) -> list[str]:
        """The names of a table's columns, in order."""

    async def ids_follow_rows(self, transaction: Transaction) -> None:
        """After rows were copied in with their ids: the next table gets an id after theirs."""


def is_postgresql(target: str) -> bool:
    return target.startswith(POSTGRESQL_SCHEMES)


def connect(target: str) -> Database:
    """The database `target` names: a PostgreSQL URL, or else an SQLite file path."""
    if is_postgresql(target):
        from tables.postgres_db import PostgresDatabase

        return PostgresDatabase(target)
    from tables.sqlite_db import SqliteDatabase

    return SqliteDatabase(target)


def shown_target(target: str) -> str:
    """`target` as logs and messages may show it: a URL's password left out."""
    if not is_postgresql(target) or "@" not in target:
        return target
    scheme, rest = target.split("://", 1)
    credentials, place = rest.rsplit("@", 1)
    return f"{scheme}://{credentials.split(':', 1)[0]}@{place}"
