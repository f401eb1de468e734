"""Publishing yields to updates under way: a press is answered before the loop shows moves."""

from __future__ import annotations

import asyncio

import pytest

from handlers.delivery import precedence
from handlers.delivery.precedence import UpdatesFirst

pytestmark = pytest.mark.asyncio


async def test_publishing_waits_for_the_update_under_way():
    updates = UpdatesFirst()
    events: list[str] = []
    answer = asyncio.Event()

    async def press() -> None:
        await answer.wait()
        events.append("press answered")

    async def publish() -> None:
        await updates.quiet()
        events.append("published")

    handling = asyncio.create_task(updates.process_update(object(), press()))
    await asyncio.sleep(0)
    publishing = asyncio.create_task(publish())
    await asyncio.sleep(0.01)
    assert events == []
    answer.set()
    await asyncio.gather(handling, publishing)
    assert events == ["press answered", "published"]


async def test_a_stream_of_updates_cannot_hold_publishing_for_long(monkeypatch):
    monkeypatch.setattr(precedence, "MAX_WAIT", 0.05)
    updates = UpdatesFirst()
    never = asyncio.Event()
    handling = asyncio.create_task(updates.process_update(object(), never.wait()))
    await asyncio.sleep(0)
    await asyncio.wait_for(updates.quiet(), 1)  # returns after MAX_WAIT although still busy
    assert not handling.done()
    handling.cancel()


async def test_nothing_waits_when_no_update_is_handled():
    updates = UpdatesFirst()
    await asyncio.wait_for(updates.quiet(), 0.01)
