"""Random legal play: the driver of property tests, benchmarks, and the bot's demo players."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from engine.core.protocol import Action, Applied, Event, Game, State


@dataclass(frozen=True)
class Step:
    player: str
    action: Action
    state: State
    events: list[Event]


def random_steps(game: Game, state: State, rng: random.Random, max_steps: int = 100_000) -> Iterator[Step]:
    """Play uniformly random legal actions until the match ends; yield each applied step."""
    for _ in range(max_steps):
        if game.is_finished(state):
            return
        waiting = game.to_act(state)
        if not waiting:
            raise AssertionError("game not finished but waits for nobody")
        player = rng.choice(waiting)
        actions = game.legal_actions(state, player)
        if not actions:
            raise AssertionError(f"{player} must act but has no legal action")
        action = rng.choice(actions)
        result = game.apply(state, player, action)
        if not isinstance(result, Applied):
            raise AssertionError(f"legal action {action} refused: {result.code} {result.message}")
        state = result.state
        yield Step(player, action, state, result.events)
    raise AssertionError(f"match did not end within {max_steps} actions")
