"""The running bot is one typed object: `bot_data` holds the bot's services and the handlers'
services under one key each, and nothing else, however many updates went through."""

from __future__ import annotations

import pytest

from bot.services import SERVICES, services_of
from handlers.context import KARATA
from handlers.i18n import reader_translator
from tests.e2e.conftest import simulation


@pytest.mark.asyncio
async def test_bot_data_holds_the_services_and_nothing_else(api, start_bot):
    sim = simulation(api)
    async with start_bot() as application:
        await api.user_starts_bot(sim.users[0])
        await sim.open_table("kadi")
        await sim.step()
        await api.settle(quiet=0.05)
        assert set(application.bot_data) == {SERVICES, KARATA}
        services = services_of(application)
        assert services.web is not None and services.limiter.refused == application.bot_data[KARATA].keeper.refused


def test_a_readers_language_is_the_stored_one_else_the_places_else_telegrams():
    assert reader_translator("en", "sw", place="sw").language == "en"
    assert reader_translator(None, "en", place="sw").language == "sw"
    assert reader_translator(None, "en").language == "en"
    assert reader_translator(None, "fr").language == "sw"  # not one of ours: Swahili
