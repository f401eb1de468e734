"""Playing a table to the end of its first round straight through the table service (as people
in a hurry play, tests/e2e/helpers.py `sensible_player`): the app's tests then watch the round
boundary from the page of the player who is first to act in the next round."""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.core.protocol import Action
from tests.e2e.helpers import sensible_player


@dataclass
class LastMove:
    """The move that ends the round (not made yet), and who may act first in the next round."""

    player: str
    action: Action
    version: int
    first: list[str]


def movers(game, state) -> list[str]:
    return [player for player in game.to_act(state) if game.legal_actions(state, player)]


async def to_the_last_move_of_the_round(karata, table_id: int, rng: random.Random, max_moves: int = 3000) -> LastMove:
    """Make every move of the table's current round but its last, which is returned."""
    choose = sensible_player(rng)
    for _ in range(max_moves):
        loaded = await karata.service.load(table_id)
        game, state = loaded.game, loaded.state
        player = movers(game, state)[0]
        action = choose(player, game.legal_actions(state, player), loaded)
        after = game.apply(state, player, action).state
        if game.round_number(after) != game.round_number(state):
            assert not game.is_finished(after), "the match ended with the round: choose longer options"
            return LastMove(player, action, loaded.table.version, movers(game, after))
        outcome = await karata.service.play.act(table_id, player, loaded.table.version, action)
        assert outcome.ok, outcome
    raise AssertionError("the round did not end")


async def make(karata, table_id: int, move: LastMove) -> None:
    outcome = await karata.service.play.act(table_id, move.player, move.version, move.action)
    assert outcome.ok, outcome
