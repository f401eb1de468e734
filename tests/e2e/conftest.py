"""The real Application against the fake Bot API over HTTP on 127.0.0.1."""

from __future__ import annotations

import asyncio
import contextlib
import itertools

import pytest
import pytest_asyncio

from bot.demo import DEMO_TOKEN, Simulation, demo_settings
from bot.runner import running_application
from bot.services import services_of
from fakeapi import FakeBotAPI
from tests.conftest import postgres_database

# Telegram's limits run ten times faster in tests (a group's minute lasts 6 s), on the bot's
# side (KARATA_TELEGRAM_SECOND) and the fake's alike: the same ratios, a tenth of the waiting.
TELEGRAM_SECOND = 0.1


@pytest_asyncio.fixture
async def api():
    async with FakeBotAPI(telegram_second=TELEGRAM_SECOND) as fake:
        yield fake


# `@pytest.mark.parametrize("db_path", STORES, indirect=True)`: a test runs on both stores.
STORES = ["sqlite", "postgresql"]


@pytest.fixture
def db_path(request, tmp_path):
    """The bot's KARATA_DB: an SQLite file, or (parametrized so) a fresh PostgreSQL database."""
    if getattr(request, "param", "sqlite") == "postgresql":
        return postgres_database(request)
    return str(tmp_path / "karata.db")


@pytest.fixture
def start_bot(api, db_path):
    """Returns an async context manager running the bot; call it again to 'restart' on the same DB."""

    @contextlib.asynccontextmanager
    async def running(**overrides):
        overrides = {"KARATA_TELEGRAM_SECOND": api.flood_control.second, **overrides}
        async with running_application(demo_settings(api, db_path, **overrides)) as application:
            # Every run deals the same cards: table n gets seed "n".
            seeds = itertools.count(1)
            application.bot_data["karata"].service.lobby.new_seed = lambda: str(next(seeds))
            # A press is answered first and shown after: a test reads the players' chats once
            # both happened (a group's table may wait for its flood budget: tests that read it
            # flush the publisher first).
            publisher = application.bot_data["karata"].publisher
            api.after_answer = lambda: publisher.settle(private_only=True)
            # `api.settle` also waits for updates being handled and changes being rendered.
            api.bot_busy = lambda: bool(
                application.update_queue.qsize()
                or application.update_processor.current_concurrent_updates
                or publisher.busy(private_only=True)
            )
            # What the bot finishes after its first poll (menus, stored deadlines) is done too.
            await asyncio.gather(*services_of(application).background)
            await api.settle(quiet=0.05)
            try:
                yield application
            finally:
                api.after_answer = api.bot_busy = None

    return running


@pytest.fixture
def token():
    return DEMO_TOKEN


def simulation(api, count=3, seed=7, language="en"):
    return Simulation.create(api, count, seed, language)
