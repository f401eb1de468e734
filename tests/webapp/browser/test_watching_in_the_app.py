"""A watcher in headless Chromium, opened by the group table's 👀 Watch link, follows a whole Kadi
match live to its end against the real bot on the fake Bot API: at every version its page shows
the table with no hand and nothing to press, and holds none of the cards the engine keeps out
of sight; a player's page says one person watches."""

from __future__ import annotations

import json
import random
from urllib.parse import parse_qs, urlparse

import pytest

from handlers.presentation import cards as show
from tests.e2e.conftest import simulation
from tests.e2e.helpers import sensible_player
from tests.webapp.browser.browser import app_url
from tests.webapp.browser.page import Page
from tests.webapp.browser.test_play_in_the_app import APP, LIVE_SECONDS, base, init_data, leaving, open_page
from tests.webapp.watching import hidden_cards, leaked

pytestmark = pytest.mark.asyncio

# What a watcher's page must never draw: a hand, a key to press, a table button.
PRESSABLE = "return document.querySelectorAll('#hand .hand-slot, #moves button').length"


@pytest.mark.long
async def test_a_watcher_follows_a_whole_kadi_match_live_to_its_end(api, start_bot, browsers):
    sim = simulation(api)
    async with start_bot(**APP, KARATA_WEBAPP_NAME="karata") as application, leaving(browsers):
        sim.application = application
        karata = application.bot_data["karata"]
        await sim.open_table("kadi", "hand_size=5 points_limit=1")
        table = await karata.store.live_table(sim.group_id, 0)
        await karata.publisher.flush()
        [link] = [url for row in sim.table_message().buttons for label, url in row if label == "👀 Watch"]
        param = parse_qs(urlparse(link).query)["startapp"][0]
        amina = sim.users[0]
        player = await open_page(browsers, application, amina)
        zuberi = api.add_user(2001, "Zuberi", language_code="en")
        watcher = Page(browsers())
        await watcher.open(app_url(base(application), init_data(zuberi, start_param=param), start_param=param))
        assert await watcher.run("return document.getElementById('app').classList.contains('watch')")
        await player.until(
            "return document.getElementById('watchers').innerText === '👀 1'", what="one watcher", timeout=LIVE_SECONDS
        )

        choose = sensible_player(random.Random(3))
        for _move in range(600):
            loaded = await karata.service.load(table.table_id)
            await watcher.at_version(loaded.table.version, timeout=LIVE_SECONDS)
            snap = await watcher.snap()
            # The seats, the centre and the dock (the event lines say cards played, which a
            # reshuffle may have put back out of sight).
            shown = await watcher.run(
                "return ['seats', 'felt', 'prompt', 'hand'].map(function (id) {"
                " var found = document.getElementById(id); return found ? found.innerText : ''; }).join('\\n')"
            )
            # What the page received (its GET, its socket's frames), and what it draws.
            assert not leaked(json.dumps(snap, ensure_ascii=False), hidden_cards(loaded.game, loaded.state))
            assert not [card for card in hidden_cards(loaded.game, loaded.state) if show.card(card) in shown]
            assert snap["hand"] == [] and await watcher.run(PRESSABLE) == 0
            if loaded.game.is_finished(loaded.state):
                break
            assert await watcher.text("#prompt") == "👀 You are watching this table.", shown
            game, state = loaded.game, loaded.state
            mover = next(who for who in game.to_act(state) if game.legal_actions(state, who))
            action = choose(mover, game.legal_actions(state, mover), loaded)
            assert (await karata.service.play.act(table.table_id, mover, loaded.table.version, action)).ok
        else:
            raise AssertionError("the match did not end")
        winner = next(user for user in sim.users if str(user.id) in loaded.game.winners(loaded.state))
        await watcher.until("return !!document.getElementById('standings')", what="the standings", timeout=LIVE_SECONDS)
        assert (await watcher.text("#standings")).splitlines()[0] == f"🏆 Winner: {winner.first_name}"
        assert await watcher.text("#prompt") == "Match over."
