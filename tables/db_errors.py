"""Failed database writes, counted by kind for /metrics (`karata_database_errors_total{kind}`).

The database counts each write that fails (every transaction and single statement of
tables/sqlite_db.py and tables/postgres_db.py runs inside `counted`), then lets the error go on as
before. Kinds an operator acts on differently, on SQLite and on PostgreSQL alike:
- busy: the database was locked by another process (a backup tool, a second writer) too long,
  or PostgreSQL gave up a transaction to a concurrent one (serialization failure, deadlock);
- constraint: the database refused a write that breaks its rules (a bug, or a damaged row);
- corrupt: the file is damaged, or PostgreSQL found damaged or impossible data (restore a
  backup: docs/OPERATIONS.md);
- storage: the disk is full, read-only or failing;
- other: any other failed write (PostgreSQL's connection lost included).
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator

import asyncpg
from prometheus_client import Counter

KINDS = ("busy", "constraint", "corrupt", "storage", "other")

# SQLite's primary result codes (an extended code's name starts with its primary's).
_BY_CODE = {
    "SQLITE_BUSY": "busy",
    "SQLITE_LOCKED": "busy",
    "SQLITE_CONSTRAINT": "constraint",
    "SQLITE_CORRUPT": "corrupt",
    "SQLITE_NOTADB": "corrupt",
    "SQLITE_FULL": "storage",
    "SQLITE_IOERR": "storage",
    "SQLITE_READONLY": "storage",
    "SQLITE_CANTOPEN": "storage",
    "SQLITE_PERM": "storage",
}

# PostgreSQL's SQLSTATE codes and classes (a class is a code's first two characters).
_BY_STATE = {
    "40001": "busy",  # serialization failure
    "40P01": "busy",  # deadlock detected
    "55P03": "busy",  # lock not available
    "23": "constraint",  # integrity constraint violation
    "XX001": "corrupt",  # data corrupted
    "XX002": "corrupt",  # index corrupted
    "22": "corrupt",  # data exception: a value the schema cannot hold
    "53": "storage",  # insufficient resources (disk full, out of memory)
    "58": "storage",  # system error (I/O)
    "25006": "storage",  # read-only transaction (a standby, a read-only server)
}


def kind_of(error: BaseException) -> str | None:
    """The kind of a database error; None for what is not one (a cancelled task, a bug)."""
    if isinstance(error, sqlite3.Error):
        name = getattr(error, "sqlite_errorname", None) or ""
        return next((kind for code, kind in _BY_CODE.items() if name == code or name.startswith(code + "_")), "other")
    if isinstance(error, asyncpg.PostgresError):
        state = error.sqlstate or ""
        return _BY_STATE.get(state) or _BY_STATE.get(state[:2], "other")
    if isinstance(error, (asyncpg.InterfaceError, ConnectionError)):
        return "other"
    return None


@contextlib.contextmanager
def counted(errors: Counter) -> Iterator[None]:
    """Count a database error raised inside under its kind (`errors` is labelled by kind: the
    bot's `Metrics.database_errors`), and let it go on."""
    try:
        yield
    except Exception as error:
        kind = kind_of(error)
        if kind is not None:
            errors.labels(kind).inc()
        raise
