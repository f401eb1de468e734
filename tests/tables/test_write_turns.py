"""Writes take turns at the one connection, and a move's write goes before waiting records."""

from __future__ import annotations

import asyncio

import pytest

from tables.turns import MOVE, RECORD, WriteTurns

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
