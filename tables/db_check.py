"""The database checked before the bot starts: a file it cannot use stops `karata run` with one
line saying which file and what to do, instead of a traceback or a bot that never polls.

The check changes nothing: it reads the header, asks the operating system whether the file and
its directory can be written, reads the schema version through a read-only connection, and only
then (when everything says the file is writable) tries a write transaction that it rolls back.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from urllib.parse import quote

from tables.database import is_postgresql
from tables.store import MIGRATIONS

# Every SQLite 3 database starts with these 16 bytes (an empty file is a new database).
SQLITE_HEADER = b"SQLite format 3\x00"


class DatabaseProblem(Exception):
    """The database cannot be used; the message names the file and says what to do."""


def check_database(path: str) -> None:
    """Raise DatabaseProblem when `path` is not a Karata database this version can write: not an
    SQLite file (or a damaged one), another program's database, one from a newer Karata, or a
    read-only file. A missing file is fine (it is created) if its directory exists and is writable."""
    if path == ":memory:" or is_postgresql(path):
        return  # a PostgreSQL server answers for itself when the store connects
    file = Path(path)
    folder = file.parent if str(file.parent) else Path(".")
    if not file.exists():
        if not folder.is_dir():
            raise DatabaseProblem(
                f"karata: the directory of {path} does not exist: create it, or set KARATA_DB to another path"
            )
        if not os.access(folder, os.W_OK):
            raise _read_only(path, "its directory is read-only")
        return
    if not file.is_file():
        raise DatabaseProblem(f"karata: {path} is not a file: set KARATA_DB to the database file")
    with file.open("rb") as handle:
        header = handle.read(len(SQLITE_HEADER))
    if header and header != SQLITE_HEADER:
        raise _not_a_database(path, "it does not start like an SQLite file")
    # access(2) answers for the real case: a read-only mount refuses even root, a file without
    # write permission refuses everyone else; SQLite needs the directory for its -wal and -shm files.
    if not os.access(file, os.W_OK):
        raise _read_only(path, "the file is read-only")
    if not os.access(folder, os.W_OK):
        raise _read_only(path, "its directory is read-only")
    if header:
        _check_schema(path)
    _check_writable(path)


def _check_schema(path: str) -> None:
    try:
        reader = sqlite3.connect(f"file:{quote(str(Path(path).resolve()))}?mode=ro", uri=True)
    except sqlite3.Error as error:
        raise _not_a_database(path, str(error)) from None
    try:
        (version,) = reader.execute("PRAGMA user_version").fetchone()
        (tables,) = reader.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()
    except sqlite3.DatabaseError as error:
        raise _not_a_database(path, str(error)) from None
    finally:
        reader.close()
    if version > len(MIGRATIONS):
        raise DatabaseProblem(
            f"karata: {path} was written by a newer Karata (schema {version}; this version knows up to "
            f"{len(MIGRATIONS)}): run the newer version, or restore a backup this version made"
        )
    if version == 0 and tables:
        raise DatabaseProblem(
            f"karata: {path} is another program's SQLite database (it has tables but no Karata schema): "
            "set KARATA_DB to a new file"
        )


def _check_writable(path: str) -> None:
    """A write transaction begun and rolled back: what access(2) cannot see (a file SQLite opens
    read-only, a lock it cannot take) shows here."""
    try:
        writer = sqlite3.connect(f"file:{quote(str(Path(path).resolve()))}?mode=rw", uri=True, timeout=5)
    except sqlite3.Error as error:
        raise _read_only(path, str(error)) from None
    try:
        writer.execute("BEGIN IMMEDIATE")
        writer.execute("ROLLBACK")
    except sqlite3.OperationalError as error:
        if "locked" in str(error) or "busy" in str(error):
            return  # another connection is writing: the store waits its turn, as it always does
        raise _read_only(path, str(error)) from None
    except sqlite3.DatabaseError as error:
        raise _not_a_database(path, str(error)) from None
    finally:
        writer.close()


def _not_a_database(path: str, why: str) -> DatabaseProblem:
    return DatabaseProblem(
        f"karata: {path} is not a usable SQLite database ({why}): restore it from a backup, "
        "or move it away to start with an empty one"
    )


def _read_only(path: str, why: str) -> DatabaseProblem:
    return DatabaseProblem(
        f"karata: {path} cannot be written ({why}): give the user running karata write access to the "
        "file and its directory, or set KARATA_DB to a writable path"
    )
