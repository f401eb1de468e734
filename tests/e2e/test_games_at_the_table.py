"""Whole matches of Lopti, Pitch, Euchre for three and Three Thirteen through the fake Bot API.

Simulated players decide on a legal move and tap its buttons, as people do. After every move
each player's private message and the group's table may show only cards that player's (or a
spectator's) engine view holds, or cards named by recent public events.
"""

from __future__ import annotations

import random

import pytest

from engine.core.cards import format_card, is_card_code
from tests.e2e.conftest import simulation
from tests.e2e.helpers import cards_in, sensible_player, table_state

pytestmark = pytest.mark.asyncio


def card_text(value) -> str:
    if isinstance(value, str):
        return format_card(value) if is_card_code(value) else ""
    if isinstance(value, dict):
        return " ".join(card_text(item) for item in value.values())
    if isinstance(value, (list, tuple)):
        return " ".join(card_text(item) for item in value)
    return ""


async def assert_shown_only_what_views_allow(application, sim, table_id):
    loaded = await table_state(application, table_id)
    await application.bot_data["karata"].publisher.flush()
    game, state = loaded.game, loaded.state
    public = set(cards_in(card_text(loaded.table.recent_events)))
    spectator = set(cards_in(card_text(game.view(state, None))))
    table_message = sim.table_message()
    assert set(cards_in(table_message.plain)) <= spectator | public, "the group saw a hidden card"
    for user in sim.users:
        mine = set(cards_in(card_text(game.view(state, str(user.id)))))
        for message in sim.api.bot_messages(user.id)[-2:]:
            shown = set(cards_in(message.plain))
            assert shown <= mine | public | spectator, f"{user.first_name} saw {shown - mine - public - spectator}"


async def play_match(api, application, sim, game, options, until, max_moves=4000):
    sim.application = application
    await sim.open_table(game, options)
    table = await application.bot_data["karata"].store.live_table(sim.group_id, 0)
    for move in range(max_moves):
        loaded = await table_state(application, table.table_id)
        if until(loaded):
            return loaded
        if move % 5 == 0:
            await assert_shown_only_what_views_allow(application, sim, table.table_id)
        assert await sim.step(), "nobody has a button to press"
    raise AssertionError(f"{game} did not get there in {max_moves} moves")


def finished(loaded):
    return loaded.table.status == "finished"


async def logged_actions(application, table_id):
    return [action for _, _, action in await application.bot_data["karata"].store.actions_of(table_id)]


@pytest.mark.long
@pytest.mark.parametrize("players", [2, 5])
async def test_lopti_over_two_rounds(api, start_bot, players):
    sim = simulation(api, count=players, seed=players)
    sim.choose = sensible_player(random.Random(players))
    async with start_bot() as application:
        loaded = await play_match(
            api, application, sim, "lopti", "", lambda loaded: loaded.game.round_number(loaded.state) >= 3
        )
        assert sum(loaded.game.scores(loaded.state).values()) == 2
        kinds = {action["type"] for action in await logged_actions(application, loaded.table.table_id)}
        assert {"ready", "play", "no_rule"} <= kinds or {"ready", "play"} <= kinds


def cautious_bidder(rng):
    def choose(player, actions, loaded):
        kinds = {action["type"] for action in actions}
        if "bid" in kinds or "pass" in kinds:
            passes = [a for a in actions if a["type"] == "pass"]
            if passes and rng.random() < 0.6:
                return passes[0]
            bids = sorted((a for a in actions if a["type"] == "bid"), key=lambda a: a["value"])
            return bids[0] if bids else passes[0]
        return rng.choice(actions)

    return choose


@pytest.mark.long
@pytest.mark.parametrize("options", ["", "partnerships=true"])
async def test_a_whole_match_of_pitch(api, start_bot, options):
    sim = simulation(api, count=4, seed=9)
    sim.choose = cautious_bidder(random.Random(9))
    async with start_bot() as application:
        loaded = await play_match(api, application, sim, "pitch", options, finished)
        await application.bot_data["karata"].publisher.flush()
        assert "🏆" in sim.table_message().plain
        if options:
            scores = loaded.game.scores(loaded.state)
            players = [seat.player for seat in loaded.table.seats]
            assert scores[players[0]] == scores[players[2]] and scores[players[1]] == scores[players[3]]


async def event_kinds(application, loaded):
    """Replay the stored log through the engine and collect every event it produced."""
    game, table = loaded.game, loaded.table
    state = game.new([seat.player for seat in table.seats], game.Options.model_validate(table.options), table.seed)
    kinds = []
    for _, player, action in await application.bot_data["karata"].store.actions_of(table.table_id):
        result = game.apply(state, player, action)
        state = result.state
        kinds.extend(event.kind for event in result.events)
    assert game.dump(state) == game.dump(loaded.state)
    return kinds


async def test_a_whole_match_of_euchre_for_three(api, start_bot):
    sim = simulation(api, count=3, seed=4)
    async with start_bot() as application:
        loaded = await play_match(api, application, sim, "euchre3", "", finished)
        kinds = await event_kinds(application, loaded)
        assert "kept" in kinds, "no hand had the dummy merged"
        assert "defender_alone" in kinds, "no defender went alone"


def rummy_player(rng):
    def choose(player, actions, loaded):
        outs = [a for a in actions if a["type"] == "go_out"]
        if outs:
            return outs[0]
        draws = [a for a in actions if a["type"] == "draw"]
        if draws:
            return next(a for a in draws if a["from"] == "stock") if rng.random() < 0.8 else rng.choice(draws)
        best = loaded.game._timeout_discard(loaded.state, player)
        return next(a for a in actions if a.get("card") == best)

    return choose


@pytest.mark.long
async def test_three_thirteen_all_eleven_rounds_with_three_players(api, start_bot):
    sim = simulation(api, count=3, seed=13)
    sim.choose = rummy_player(random.Random(13))
    async with start_bot() as application:
        loaded = await play_match(api, application, sim, "three_thirteen", "", finished, max_moves=6000)
        assert loaded.game.round_number(loaded.state) >= 11
        await application.bot_data["karata"].publisher.flush()
        assert "Round 11" in sim.table_message().plain
