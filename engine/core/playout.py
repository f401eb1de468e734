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


def count_random_playout(game: Game, state: State, rng: random.Random, max_steps: int = 1_000_000) -> int:
    """Play random legal actions to the end through the fast path; return how many were applied."""
    applied = 0
    while not game.is_finished(state):
        if applied >= max_steps:
            raise AssertionError(f"match did not end within {max_steps} actions")
        # One random choice per decision, as OpenSpiel's drivers make: a lone waiting player
        # needs none.
        waiting = game.to_act(state)
        player = waiting[0] if len(waiting) == 1 else rng.choice(waiting)
        result = game.advance(state, player, rng.choice(game.legal_actions(state, player)))
        if not isinstance(result, Applied):
            raise AssertionError(f"legal action refused: {result.code}")
        state = result.state
        applied += 1
    return applied
