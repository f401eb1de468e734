"""A transaction's writes are all committed or none, and each sees the ones before it, on both
stores (PostgreSQL holds a transaction's first writes and sends them together: tables/postgres_db.py)."""

from __future__ import annotations

import sqlite3

import asyncpg
import pytest

from tables.store import Store

pytestmark = pytest.mark.asyncio


async def opened(database: str) -> Store:
    store = Store(database)
    await store.open()
    return store


async def names(store: Store) -> dict[int, str]:
    return {row[0]: row[1] for row in await store.database.all("SELECT user_id, first_name FROM users")}


async def test_a_failing_write_undoes_the_writes_before_it(database):
    store = await opened(database)
    await store.remember_user(1, "Amani", "en")

    async def work(transaction):
        await transaction.execute("UPDATE users SET first_name = ? WHERE user_id = ?", ("Baraka", 1))
        await transaction.execute("INSERT INTO chats (chat_id, language) VALUES (?, ?)", (-5, "sw"))
        await transaction.execute("INSERT INTO users (user_id, first_name) VALUES (?, ?)", (1, "twice"))

    with pytest.raises((sqlite3.IntegrityError, asyncpg.UniqueViolationError)):
        await store.database.transaction(work)
    assert await names(store) == {1: "Amani"}
    assert await store.chat_language(-5) is None
    await store.close()


async def test_work_that_raises_before_any_read_writes_nothing(database):
    store = await opened(database)

    async def work(transaction):
        await transaction.execute("INSERT INTO users (user_id, first_name) VALUES (?, ?)", (2, "Chausiku"))
        raise RuntimeError("changed its mind")

    with pytest.raises(RuntimeError):
        await store.database.transaction(work)
    assert await names(store) == {}
    await store.close()


async def test_each_write_sees_the_writes_before_it(database):
    store = await opened(database)

    async def work(transaction):
        await transaction.execute("INSERT INTO users (user_id, first_name) VALUES (?, ?)", (3, "Dalila"))
        await transaction.execute("UPDATE users SET first_name = first_name || ? WHERE user_id = ?", ("!", 3))
        await transaction.execute("INSERT INTO chats (chat_id, language) VALUES (?, ?)", (-6, "en"))
        await transaction.execute(
            "UPDATE chats SET title = (SELECT first_name FROM users WHERE user_id = ?) WHERE chat_id = ?", (3, -6)
        )
        return [tuple(row) for row in await transaction.fetchall("SELECT title FROM chats WHERE chat_id = ?", (-6,))]

    assert await store.database.transaction(work) == [("Dalila!",)]
    assert await names(store) == {3: "Dalila!"}
    await store.close()
