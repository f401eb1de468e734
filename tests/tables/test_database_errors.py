"""/metrics counts the database's failed writes by kind (busy or locked, a refused constraint, a
damaged file, the disk), so that an operator can alert on them before players notice."""

from __future__ import annotations

import os
import sqlite3

import asyncpg
import pytest
from prometheus_client import generate_latest

from tables.db_errors import KINDS, kind_of
from tables.metrics import Metrics
from tables.store import Store


def failed_write(error_of) -> BaseException:
    try:
        error_of()
    except sqlite3.Error as error:
        return error
    raise AssertionError("the write went through")


def a_refused_constraint(tmp_path) -> None:
    connection = sqlite3.connect(":memory:")
    connection.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)")
    connection.execute("INSERT INTO t VALUES (1)")
    connection.execute("INSERT INTO t VALUES (1)")


def a_damaged_file(tmp_path) -> None:
    (tmp_path / "damaged.db").write_bytes(os.urandom(8192))
    sqlite3.connect(tmp_path / "damaged.db").execute("CREATE TABLE t (id INTEGER)")


def a_locked_database(tmp_path) -> None:
    holder = sqlite3.connect(tmp_path / "locked.db", timeout=0)
    holder.execute("CREATE TABLE t (id INTEGER)")
    holder.commit()
    holder.execute("BEGIN IMMEDIATE")
    sqlite3.connect(tmp_path / "locked.db", timeout=0).execute("INSERT INTO t VALUES (1)")


def a_read_only_database(tmp_path) -> None:
    sqlite3.connect(tmp_path / "ro.db").execute("CREATE TABLE t (id INTEGER)").connection.commit()
    sqlite3.connect(f"file:{tmp_path / 'ro.db'}?mode=ro", uri=True).execute("INSERT INTO t VALUES (1)")


@pytest.mark.parametrize(
    "cause, kind",
    [(a_refused_constraint, "constraint"), (a_damaged_file, "corrupt"), (a_locked_database, "busy"),
     (a_read_only_database, "storage")],
)  # fmt: skip
def test_each_failure_is_counted_under_its_kind(tmp_path, cause, kind):
    assert kind_of(failed_write(lambda: cause(tmp_path))) == kind


def test_what_is_not_a_database_error_is_not_counted():
    assert kind_of(ValueError("a bug")) is None


def test_every_kind_is_on_the_page_from_the_start():
    page = generate_latest(Metrics().registry).decode()
    for kind in KINDS:
        assert f'karata_database_errors_total{{kind="{kind}"}} 0.0' in page


@pytest.mark.asyncio
async def test_a_write_that_finds_the_database_locked_is_counted_and_still_raised(tmp_path):
    path = str(tmp_path / "k.db")
    store = Store(path)
    await store.open()
    store.metrics = metrics = Metrics()
    holder = sqlite3.connect(path, timeout=0)
    try:
        await store.database.db.execute("PRAGMA busy_timeout = 0")  # fail at once instead of after 5 s
        holder.execute("BEGIN IMMEDIATE")  # another process writing (a tool, a second writer)
        with pytest.raises(sqlite3.OperationalError):
            await store.set_chat_language(-100, "en")
        holder.rollback()
        await store.set_chat_language(-100, "en")  # goes through once the lock is gone: not counted
    finally:
        holder.close()
        await store.close()
    page = generate_latest(metrics.registry).decode()
    assert 'karata_database_errors_total{kind="busy"} 1.0' in page
    assert 'karata_database_errors_total{kind="other"} 0.0' in page


@pytest.mark.parametrize(
    "error, kind",
    [(asyncpg.exceptions.SerializationError, "busy"), (asyncpg.exceptions.DeadlockDetectedError, "busy"),
     (asyncpg.exceptions.UniqueViolationError, "constraint"), (asyncpg.exceptions.DataCorruptedError, "corrupt"),
     (asyncpg.exceptions.NumericValueOutOfRangeError, "corrupt"), (asyncpg.exceptions.DiskFullError, "storage"),
     (asyncpg.exceptions.ReadOnlySQLTransactionError, "storage"), (asyncpg.exceptions.UndefinedTableError, "other"),
     (asyncpg.exceptions.ConnectionDoesNotExistError, "other")],
)  # fmt: skip
def test_each_postgresql_failure_is_counted_under_its_kind(error, kind):
    assert kind_of(error("a failed write")) == kind


@pytest.mark.asyncio
async def test_a_refused_write_is_counted_on_either_database(database):
    store = Store(database)
    await store.open()
    store.metrics = metrics = Metrics()
    try:
        await store._write("INSERT INTO chats (chat_id, language) VALUES (?, ?)", (-100, "en"))
        with pytest.raises((sqlite3.IntegrityError, asyncpg.exceptions.UniqueViolationError)):
            await store._write("INSERT INTO chats (chat_id, language) VALUES (?, ?)", (-100, "sw"))
    finally:
        await store.close()
    assert 'karata_database_errors_total{kind="constraint"} 1.0' in generate_latest(metrics.registry).decode()
