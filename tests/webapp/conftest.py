"""The Mini App's tests run the real bot on the fake Bot API, as the end-to-end tests do."""

import aiohttp
import pytest_asyncio

from tests.e2e.conftest import api, db_path, start_bot, token  # noqa: F401  (fixtures)


@pytest_asyncio.fixture
async def http():
    """An HTTP client for the app's API and sockets."""
    async with aiohttp.ClientSession() as session:
        yield session
