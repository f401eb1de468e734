"""A round ends while the page of the player first to act in the next round is open: in every game
the page shows the pause between rounds, then the new round's moves when the pause ends (a new
revision, no move), without being opened again; its player makes the first move of the round in
the app, with the round's results open above and its hand on the screen. A page that lost its
connection during the pause catches up when it comes back."""

from __future__ import annotations

import random

import pytest

from tests.e2e.conftest import simulation
from tests.webapp.browser.page import Page
from tests.webapp.browser.test_play_in_the_app import APP, LIVE_SECONDS, leaving, lopti_moves, open_page, pitch_moves
from tests.webapp.round_end import make, movers, to_the_last_move_of_the_round

pytestmark = pytest.mark.asyncio

# Players, options (a match that goes on after its first round) and the moves the app prefers.
GAMES = {
    "kadi": (2, "hand_size=5", None),
    "lopti": (2, "", lopti_moves),
    "pitch": (3, "target=11", pitch_moves),
    "euchre3": (3, "target=10", None),
    "three_thirteen": (2, "", None),
}
# Long enough never to end by itself: the test ends it when the page has shown it.
PAUSE = {"KARATA_ROUND_PAUSE_SECONDS": 120}
PAUSED = "Next round in a moment..."
ON_SCREEN = (
    "var r = document.querySelector(arguments[0]).getBoundingClientRect(); return [r.top, r.bottom, innerHeight]"
)
# Something to tap: a card of the hand, or a button of the moves.
OFFERS_A_MOVE = "return !!document.querySelector('#hand .hand-slot.legal, #moves [data-node]')"


async def prompt(page: Page) -> str:
    return await page.text("#prompt")


@pytest.mark.long
@pytest.mark.parametrize("game", list(GAMES))
async def test_the_first_player_of_a_new_round_gets_their_moves_without_reopening_the_page(
    api, start_bot, browsers, game
):
    count, options, prefer = GAMES[game]
    sim = simulation(api, count=count)
    async with start_bot(**APP, **PAUSE) as application, leaving(browsers):
        sim.application = application
        karata = application.bot_data["karata"]
        await sim.open_table(game, options)
        table = await karata.store.live_table(sim.group_id, 0)
        last = await to_the_last_move_of_the_round(karata, table.table_id, random.Random(3))
        first = next(user for user in sim.users if str(user.id) in last.first)
        page = await open_page(browsers, application, first)
        await page.at_version(last.version, timeout=LIVE_SECONDS)
        await make(karata, table.table_id, last)
        await page.until(
            "return document.querySelector('#prompt').innerText === arguments[0]",
            PAUSED,
            timeout=LIVE_SECONDS,
            what="the pause between rounds",
        )
        assert not await page.run(OFFERS_A_MOVE)
        await karata.service.timekeeper.end_pause(table.table_id)
        await page.until(OFFERS_A_MOVE, timeout=LIVE_SECONDS, what="the new round's moves")
        assert await prompt(page) != PAUSED
        # The round's results are open above, and the hand with its buttons is on the screen.
        assert await page.run("return document.querySelector('#results').open")
        for part in ("#hand", "#moves", "#prompt"):
            top, bottom, height = await page.run(ON_SCREEN, part)
            assert 0 <= top and bottom <= height, (part, top, bottom, height)
        # The first move of the new round, tapped in the app.
        assert await page.play_one(random.Random(4), prefer)
        played = await karata.store.actions_of(table.table_id)
        assert played[-1][0] == last.version + 2 and played[-1][1] == str(first.id)


@pytest.mark.long
async def test_a_page_offline_when_the_pause_ends_shows_the_new_round_when_it_is_back(api, start_bot, browsers):
    sim = simulation(api, count=2)
    async with start_bot(**APP, **PAUSE) as application, leaving(browsers):
        sim.application = application
        karata = application.bot_data["karata"]
        await sim.open_table("three_thirteen")
        table = await karata.store.live_table(sim.group_id, 0)
        last = await to_the_last_move_of_the_round(karata, table.table_id, random.Random(3))
        first = next(user for user in sim.users if str(user.id) in last.first)
        page = await open_page(browsers, application, first)
        await make(karata, table.table_id, last)
        await page.until(
            "return document.querySelector('#prompt').innerText === arguments[0]",
            PAUSED,
            timeout=LIVE_SECONDS,
            what="the pause between rounds",
        )
        # The connection drops and no socket can be opened for a while; meanwhile the pause ends.
        await page.run(
            "window.RealWebSocket = window.WebSocket;"
            "window.WebSocket = function () { throw new Error('offline'); };"
            "KarataApp.dropLive();"
        )
        await page.until("return !document.querySelector('#offline').hidden", what="the reconnecting notice")
        await karata.service.timekeeper.end_pause(table.table_id)
        loaded = await karata.service.load(table.table_id)
        assert str(first.id) in movers(loaded.game, loaded.state)
        # Back online: the page shows the moves of the new round, the same version as before.
        await page.run("window.WebSocket = window.RealWebSocket;")
        await page.until(OFFERS_A_MOVE, timeout=LIVE_SECONDS, what="the new round's moves")
        assert await page.version() == loaded.table.version
        assert await page.play_one(random.Random(4))
