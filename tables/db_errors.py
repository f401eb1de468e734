"""Failed database writes, counted by kind for /metrics (`karata_database_errors_total{kind}`).

The store counts each write that fails (tables/store.py wraps every write in `counted`), then
lets the error go on as before. Kinds an operator acts on differently:
- busy: the database was locked by another process (a backup tool, a second writer) too long;
- constraint: the database refused a write that breaks its rules (a bug, or a damaged row);
- corrupt: the file is damaged (restore a backup: docs/OPERATIONS.md);
- storage: the disk is full, read-only or failing;
- other: any other failed write.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator

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


def kind_of(error: BaseException) -> str | None:
    """The kind of a database error; None for what is not one (a cancelled task, a bug)."""
    if not isinstance(error, sqlite3.Error):
        return None
    name = getattr(error, "sqlite_errorname", None) or ""
    return next((kind for code, kind in _BY_CODE.items() if name == code or name.startswith(code + "_")), "other")


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
