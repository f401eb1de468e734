"""Kadi with elimination: a player over the points limit is told, in their private chat, that
they are out, with their points, and that they watch the match to its end."""

from __future__ import annotations

import asyncio
import random

import pytest

from handlers.i18n import translator
from tests.e2e.conftest import simulation
from tests.e2e.helpers import sensible_player

pytestmark = pytest.mark.asyncio


@pytest.mark.parametrize("language", ["en", "sw"])
async def test_an_eliminated_player_is_told_they_are_out_with_their_points(api, start_bot, language):
    sim = simulation(api, count=4, seed=3, language=language)
    rng = random.Random(3)
    choose = sensible_player(rng)
    async with start_bot(language=language, KARATA_TURN_SECONDS=0, KARATA_ROUND_PAUSE_SECONDS=0.05) as application:
        karata = application.bot_data["karata"]
        await sim.open_table("kadi", "timer=0 elimination=true points_limit=25")
        table = await karata.store.live_table(sim.group_id, 0)
        out: list[str] = []
        for _move in range(5000):
            loaded = await karata.service.load(table.table_id)
            out = loaded.game.view(loaded.state, None)["eliminated"]
            if out or loaded.table.status != "playing":
                break
            if karata.service.paused(loaded.table):
                await asyncio.sleep(0.02)
                continue
            player = loaded.game.to_act(loaded.state)[0]
            legal = loaded.game.legal_actions(loaded.state, player)
            action = choose(player, legal, loaded) or rng.choice(legal)
            await karata.service.play.act(table.table_id, player, loaded.table.version, action)
        assert out and loaded.table.status == "playing", "someone is out while the others play on"
        await asyncio.sleep(0.1)  # the round's pause ends: the next round is dealt
        await karata.publisher.settle()
        loaded = await karata.service.load(table.table_id)
        user = next(user for user in sim.users if str(user.id) == out[0])
        points = loaded.game.view(loaded.state, None)["scores"][out[0]]
        _ = translator(language)
        text = api.bot_messages(user.id)[-1].plain
        assert (
            _("You are out of this match: {points} points, over the limit of {limit}.", points=points, limit=25) in text
        )
        assert (
            _("You watch the others play on until one of them is left: the group's table shows the match to its end.")
            in text
        )
        assert _("Wait for your turn.") not in text and _("Your hand is empty.") not in text
