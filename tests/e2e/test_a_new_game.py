"""A game added with an engine package and a renderer only (tests/toygame: High Card), registered
for the test as docs/ARCHITECTURE.md says: /newgame offers it, the command line names it, a
practice table seats its usual table, its finished match counts in the records, and the Mini App
draws it. Nothing else in the bot names a game."""

from __future__ import annotations

import sys
import time

import pytest

from bot import cli
from engine.registry import GAME_MODULES
from handlers.i18n import translator
from handlers.presentation.games import renderer_for
from handlers.webapp.snapshot import snapshot
from tests.e2e.conftest import simulation
from tests.e2e.test_computer_players import FAST, play_until, practice_table
from tests.toygame import renderer

pytestmark = pytest.mark.asyncio


@pytest.fixture
def highcard(monkeypatch):
    """The registry's line and the renderer's module, for this test only."""
    monkeypatch.setitem(GAME_MODULES, "highcard", "tests.toygame.engine")
    monkeypatch.setitem(sys.modules, "handlers.presentation.games.highcard", renderer)
    renderer_for.cache_clear()
    yield
    renderer_for.cache_clear()


def labels(message):
    return [label for row in (message.buttons if message else []) for label, _data in row]


async def test_newgame_offers_it_and_the_command_line_names_it(api, start_bot, highcard, capsys):
    sim = simulation(api, count=1)
    async with start_bot() as application:
        await api.send_text(sim.users[0], sim.group_id, "/newgame")
        picker = await api.wait_until(lambda: api.last_message(sim.group_id), what="the game picker")
        assert "High Card" in labels(picker)
        await api.send_text(sim.users[0], sim.group_id, "/newgame highcard")
        lobby = await api.wait_until(sim.table_message, what="the lobby")
        assert "High Card" in lobby.plain
        assert (await application.bot_data["karata"].store.live_table(sim.group_id, 0)).game == "highcard"
    with pytest.raises(SystemExit):
        cli.main(["arena", "--help"])
    assert "highcard" in capsys.readouterr().out


async def test_a_practice_match_is_seated_played_recorded_and_drawn_by_the_app(api, start_bot, highcard):
    sim = simulation(api, count=1, seed=3)
    player = sim.users[0]
    async with start_bot(**FAST) as application:
        await api.user_starts_bot(player)
        await api.send_text(player, player.id, "/newgame highcard level=easy")
        table = await api.wait_until(lambda: practice_table(application, player.id), what="the practice table")
        # The game's usual table is three: the player and two computers.
        assert len(table.computers) == 2
        loaded = await play_until(
            application, sim, table.table_id, lambda loaded: str(player.id) in loaded.game.to_act(loaded.state)
        )
        drawn = snapshot(loaded.table, loaded.game, loaded.state, str(player.id), translator("en"), time.time())
        assert drawn["title"] == "High Card" and len(drawn["hand"]) == 2
        assert {key["card"] for key in drawn["choices"]["keys"]} == set(drawn["hand"])
        finished = await play_until(application, sim, table.table_id, lambda loaded: loaded.table.status == "finished")
        assert finished.game.is_finished(finished.state)
        await api.send_text(player, player.id, "/stats")
        stats = await api.wait_until(
            lambda: (found := api.last_message(player.id)) and "📊" in found.plain and found, what="/stats"
        )
        assert "High Card: 1 match" in stats.plain
