"""Updates handled to their end are remembered for a day (Telegram keeps an update that long),
and then go, also while the bot keeps running."""

from __future__ import annotations

import time

import pytest

from tables.store import HANDLED_UPDATE_SECONDS, Store

pytestmark = pytest.mark.asyncio


async def test_a_handled_update_is_remembered_for_a_day_then_forgotten(database):
    store = Store(database)
    await store.open()
    try:
        await store.remember_update(1)
        await store.remember_update(2)
        await store._write(
            "UPDATE handled_updates SET handled_at = ? WHERE update_id = 1",
            (time.time() - HANDLED_UPDATE_SECONDS - 60,),
        )
        await store.forget_old_updates()
        assert not await store.update_handled(1)
        assert await store.update_handled(2)
    finally:
        await store.close()
