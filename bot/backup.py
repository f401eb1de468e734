"""`karata backup FILE` and `karata restore FILE`, and the lock that tells a database in use.

A backup is SQLite's online backup API (sqlite3.Connection.backup): a consistent copy of the
live database while the bot runs and writes (WAL mode lets the copy read while moves commit),
never a file copy, which could catch the database file and its WAL at different moments.

A running bot holds an exclusive lock on `<database>.lock` (flock: the system drops it when the
process ends, even killed). `restore` takes the same lock first and refuses while a bot has it;
a second bot on the same database refuses to start for the same reason.
"""

from __future__ import annotations

import errno
import fcntl
import os
import sqlite3
from pathlib import Path

# Pages copied per step: the bot's writes go on between steps (a step holds a read lock only).
PAGES_PER_STEP = 1024


class DatabaseInUse(SystemExit):
    """Raised with one human line."""


class BadBackup(SystemExit):
    """Raised with one human line."""


class DatabaseLock:
    """The running bot's claim on its database file (nothing for an in-memory database)."""

    def __init__(self, db_path: str):
        self.path = None if db_path == ":memory:" else Path(db_path + ".lock")
        self._file: int | None = None

    def acquire(self, what: str) -> None:
        if self.path is None:
            return
        descriptor = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(descriptor)
            raise DatabaseInUse(
                f"karata: the database {self.path.with_suffix('')} is in use by a running bot; {what}"
            ) from None
        self._file = descriptor

    def release(self) -> None:
        if self._file is not None:
            os.close(self._file)  # closing drops the lock
            self._file = None


def backup(db_path: str, target: str) -> int:
    """Copy the database at `db_path` (running or not) to `target`; returns its size in bytes.
    The copy is written beside the target and renamed into place: a half-written backup never
    has the target's name."""
    if not Path(db_path).exists():
        raise BadBackup(f"karata: there is no database at {db_path} (KARATA_DB)")
    partial = Path(target + ".partial")
    _claim(partial, target)
    source = sqlite3.connect(db_path)
    copy = sqlite3.connect(partial)
    made = False
    try:
        source.backup(copy, pages=PAGES_PER_STEP)
        # One self-contained file: no WAL beside it.
        copy.execute("PRAGMA journal_mode=DELETE")
        _check(copy, db_path)
        made = True
    except sqlite3.Error as error:  # the disk filled up, the database is damaged...
        raise BadBackup(f"karata backup: cannot copy {db_path} to {target}: {error}") from None
    finally:
        copy.close()
        source.close()
        if not made:
            partial.unlink(missing_ok=True)  # no half-made copy left behind
    os.replace(partial, target)
    return Path(target).stat().st_size


def _claim(partial: Path, target: str) -> None:
    """Create the copy's file before SQLite does: the system then says why a path cannot be
    written (SQLite only says "unable to open database file")."""
    if Path(target).is_dir():
        raise BadBackup(f"karata backup: cannot write the backup to {target}: it is a folder")
    try:
        partial.unlink(missing_ok=True)
        partial.open("wb").close()
    except OSError as error:
        raise BadBackup(f"karata backup: cannot write the backup to {target}: {_why(error, partial)}") from None


def _why(error: OSError, path: Path) -> str:
    folder = path.parent
    if error.errno == errno.ENOENT:
        missing = next((up for up in [folder, *folder.parents] if not up.exists()), None)
        if missing is not None:
            return f"the folder {folder} does not exist"
        return f"the folder {folder} takes no new files"  # /proc, /sys
    if error.errno == errno.ENOTDIR:
        file = next((up for up in [folder, *folder.parents] if up.exists() and not up.is_dir()), folder)
        return f"{file} is a file, not a folder"
    return (error.strerror or str(error)).lower()  # permission denied, read-only file system...


def restore(backup_file: str, db_path: str) -> Path | None:
    """Put the backup in the database's place while no bot runs on it. The database it replaces
    is kept beside it as `<database>.before-restore`, which is returned (None if there was none)."""
    if not Path(backup_file).is_file():
        raise BadBackup(f"karata: there is no backup at {backup_file}")
    checked = sqlite3.connect(f"file:{backup_file}?mode=ro", uri=True)
    try:
        _check(checked, backup_file)
    finally:
        checked.close()
    lock = DatabaseLock(db_path)
    lock.acquire("stop it first (docker compose stop karata, or Ctrl-C), then restore")
    try:
        partial = Path(db_path + ".partial")
        partial.unlink(missing_ok=True)
        source = sqlite3.connect(f"file:{backup_file}?mode=ro", uri=True)
        copy = sqlite3.connect(partial)
        try:
            source.backup(copy)
            copy.execute("PRAGMA journal_mode=DELETE")
        finally:
            copy.close()
            source.close()
        kept = None
        if Path(db_path).exists():
            # Whatever the old database's WAL still holds goes into it before it is set aside:
            # a WAL left beside the restored file would be read as part of it.
            old = sqlite3.connect(db_path)
            old.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            old.execute("PRAGMA journal_mode=DELETE")
            old.close()
            kept = Path(db_path + ".before-restore")
            os.replace(db_path, kept)
        for leftover in ("-wal", "-shm"):
            Path(db_path + leftover).unlink(missing_ok=True)
        os.replace(partial, db_path)
        return kept
    finally:
        lock.release()


def _check(connection: sqlite3.Connection, name: str) -> None:
    try:
        (verdict,) = connection.execute("PRAGMA quick_check").fetchone()
        known = connection.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'tables'").fetchone()
    except sqlite3.DatabaseError as error:
        raise BadBackup(f"karata: {name} is not a SQLite database ({error})") from None
    if verdict != "ok":
        raise BadBackup(f"karata: {name} is damaged ({verdict})")
    if known is None:
        raise BadBackup(f"karata: {name} is not a Karata database")
