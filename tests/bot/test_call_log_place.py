"""Where a bot keeps the last minute's group calls across a restart (docs/DECISIONS.md, "Flood
limits across a restart"): beside a SQLite file, in the temporary folder per bot on PostgreSQL."""

from __future__ import annotations

import tempfile
from pathlib import Path

from bot.app import call_log_path
from bot.settings import Settings

TOKEN = "123456:test-token"


def settings(db: str, token: str = TOKEN) -> Settings:
    return Settings(BOT_TOKEN=token, KARATA_DB=db)


def test_a_sqlite_database_keeps_its_calls_beside_it(tmp_path):
    database = str(tmp_path / "karata.db")
    assert call_log_path(settings(database)) == database + ".calls"


def test_postgresql_keeps_each_bots_calls_in_a_file_of_its_own():
    url = "postgresql://karata:secret@127.0.0.1:5432/karata"
    first, second = call_log_path(settings(url)), call_log_path(settings(url, "654321:another-test-token"))
    assert first is not None and second is not None and first != second
    assert Path(first).parent == Path(tempfile.gettempdir()) and "secret" not in first


def test_a_database_in_memory_keeps_none():
    assert call_log_path(settings(":memory:")) is None
