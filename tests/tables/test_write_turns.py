"""Writes take turns at the one connection, and a move's write goes before waiting records."""

from __future__ import annotations

import asyncio

import pytest

from tables.models import Shown
from tables.turns import MOVE, RECORD, WriteTurns
from tests.tables.matches import AMINA, BARAKA, GROUP, QUICK_KADI, open_service, seat_table

pytestmark = pytest.mark.asyncio


async def test_a_waiting_move_writes_before_records_that_waited_longer():
    turns = WriteTurns()
    order: list[str] = []
    release = asyncio.Event()

    async def write(name: str, priority: int, hold: asyncio.Event | None = None) -> None:
        async with turns.turn(priority):
            order.append(name)
            if hold is not None:
                await hold.wait()

    first = asyncio.create_task(write("record 1", RECORD, release))
    await asyncio.sleep(0)
    waiting = [asyncio.create_task(write(f"record {n}", RECORD)) for n in (2, 3)]
    await asyncio.sleep(0)
    move = asyncio.create_task(write("move", MOVE))
    await asyncio.sleep(0)
    assert order == ["record 1"]  # one writer at a time
    release.set()
    await asyncio.gather(first, move, *waiting)
    assert order == ["record 1", "move", "record 2", "record 3"]


async def test_a_writer_cancelled_while_waiting_does_not_block_the_next():
    turns = WriteTurns()
    release = asyncio.Event()
    done: list[str] = []

    async def write(name: str, hold: asyncio.Event | None = None) -> None:
        async with turns.turn(RECORD):
            if hold is not None:
                await hold.wait()
            done.append(name)

    first = asyncio.create_task(write("first", release))
    await asyncio.sleep(0)
    cancelled = asyncio.create_task(write("cancelled"))
    last = asyncio.create_task(write("last"))
    await asyncio.sleep(0)
    cancelled.cancel()
    release.set()
    await asyncio.wait_for(asyncio.gather(first, last), 1)
    assert done == ["first", "last"]
    assert cancelled.cancelled()


async def published(service, table_id: int) -> int:
    row = await service.store._one("SELECT published_revision FROM tables WHERE table_id = ?", (table_id,))
    return row["published_revision"]


async def test_a_press_never_waits_for_its_tables_screen_record_waiting_for_its_turn(database):
    service = await open_service(database)
    table = await seat_table(service, GROUP, [AMINA, BARAKA], "kadi", QUICK_KADI)
    shown = {"table": Shown(GROUP, 1, "digest")}
    try:
        async with service.store._writes.turn():  # another table's long write
            recording = asyncio.create_task(service.messages.record_screens(table.table_id, shown, 1))
            await asyncio.sleep(0.01)
            assert not recording.done()
            # The record waits for its turn without the table's lock: a move may take it now.
            assert not service.lock(table.table_id).locked()
            async with service.lock(table.table_id):
                pass
        await asyncio.wait_for(recording, 1)
        assert await published(service, table.table_id) == 1
    finally:
        await service.store.close()


async def test_a_screen_record_lets_a_move_of_its_table_under_way_go_first(database):
    service = await open_service(database)
    table = await seat_table(service, GROUP, [AMINA, BARAKA], "kadi", QUICK_KADI)
    try:
        async with service.lock(table.table_id):  # a move of the table is under way
            recording = asyncio.create_task(service.messages.record_screens(table.table_id, {}, 5))
            await asyncio.sleep(0.01)
            assert not recording.done()
            assert await published(service, table.table_id) < 5
        await asyncio.wait_for(recording, 1)
        assert await published(service, table.table_id) == 5
    finally:
        await service.store.close()
