"""Fixtures of the fake Bot API tests: a running fake with a bot."""

from __future__ import annotations

import pytest_asyncio

from tests.fakeapi.helpers import running


@pytest_asyncio.fixture
async def env():
    async with running() as found:
        yield found
