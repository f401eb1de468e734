"""Fixtures of the fake Bot API tests: a running fake with a bot, with a hand-moved clock."""

from __future__ import annotations

import pytest
import pytest_asyncio

from tests.fakeapi.helpers import Clock, running


@pytest.fixture
def clock():
    return Clock()


@pytest_asyncio.fixture
async def env(clock):
    async with running(clock=clock) as found:
        yield found


@pytest_asyncio.fixture
async def limited(clock):
    """Like env, with Telegram's flood limits on."""
    async with running(clock=clock, flood_limits=True) as found:
        yield found
