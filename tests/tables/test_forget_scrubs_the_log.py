"""After /forget the write-ahead log is emptied (its pages held the name as it was); a reader
holding the log at that moment is said in one line, and the next try empties it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tables.sqlite_db import scrub_log


def test_a_reader_holding_the_log_is_said_and_the_log_kept_for_later(tmp_path, caplog):
    """A backup reading at that moment keeps the log from being emptied: one warning, no error."""
    path = tmp_path / "k.db"
    writer = sqlite3.connect(path, timeout=0)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("CREATE TABLE users (name TEXT)")
    writer.execute("INSERT INTO users VALUES ('Amina')")
    writer.commit()
    reader = sqlite3.connect(path, timeout=0)
    reader.execute("BEGIN")
    reader.execute("SELECT * FROM users").fetchall()  # a snapshot: the log's frames are in use
    writer.execute("DELETE FROM users")
    writer.commit()
    scrub_log(writer)
    assert "could not be emptied yet" in caplog.text
    reader.rollback()
    scrub_log(writer)
    assert Path(str(path) + "-wal").stat().st_size == 0
    reader.close()
    writer.close()
