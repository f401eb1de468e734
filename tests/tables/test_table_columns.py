"""A table row's fields are its stored columns: the migrations build exactly those (on both
databases), and a row saved with every field set reads back the same."""

from __future__ import annotations

import pytest

from tables.models import TABLE_COLUMNS, Seat, TableRow
from tables.store import Store

pytestmark = pytest.mark.asyncio

# Columns a table row does not carry: written by their own statements (tables/store.py).
OWN_STATEMENTS = {"published_revision"}


async def test_the_migrations_build_the_columns_the_row_declares(database):
    store = Store(database)
    await store.open()
    try:
        assert set(await store.database.columns("tables")) == set(TABLE_COLUMNS) | OWN_STATEMENTS
    finally:
        await store.close()


async def test_a_row_with_every_field_set_reads_back_the_same(database):
    store = Store(database)
    await store.open()
    try:
        table = await store.create_table(
            TableRow(0, -1001234567890, 7, "kadi", "lobby", 5_000_000_001, {"hand_size": 5}, 90,
                     [Seat(5_000_000_001, "Amina <b>"), Seat(-101, "🤖 Juma", plays_for="5")], "seed", join_token="t")
        )  # fmt: skip
        table.status, table.state, table.version = "playing", '{"x": 1}', 3
        table.deadline, table.deadline_seconds, table.warned = 1e9 + 0.5, 90.0, True
        table.paused_until, table.consents, table.recent_events = 1e9 + 1.25, {"5000000001": True}, [{"a": 1}]
        table.windows, table.notes, table.round_events = {"vote": [1e9, 30.0]}, {"5": [{"n": 2}]}, {"round": 1}
        table.nudged, table.unreachable, table.closed_reason = ["5"], [5_000_000_001], "empty"
        table.deal, table.level, table.stand_in, table.computer_turn = {"dealer": "5"}, "easy", True, True
        await store.save_table(table)
        assert await store.get_table(table.table_id) == table
    finally:
        await store.close()
