"""Random legal play: the driver of property tests, benchmarks, and the bot's demo players."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core.protocol import Action, Applied, Event, Game, Result, State


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


def play_randomly(
    game: Any,
    state: State,
    choice: Callable[[Sequence[Any]], Any],
    step: Callable[[State, str, Action], Result] | None = None,
    limit: int = 1_000_000,
    going: Callable[[State], bool] | None = None,
) -> tuple[State, int]:
    """Play uniformly random legal actions; return the last state and how many were applied.

    The loop of every benchmark: one random `choice` per decision, as OpenSpiel's drivers make (a
    lone waiting player needs none), applied with `step` (default: the in-place `advance`). It
    stops when nobody is waited for (the match is over), after `limit` actions, or when
    `going(state)` turns false. `game` needs only `to_act`, `legal_actions` and `step`.
    """
    to_act, legal_actions = game.to_act, game.legal_actions
    step = step or game.advance
    applied = 0
    while applied < limit and (waiting := to_act(state)) and (going is None or going(state)):
        player = waiting[0] if len(waiting) == 1 else choice(waiting)
        result = step(state, player, choice(legal_actions(state, player)))
        if not result.ok:
            raise AssertionError(f"legal action refused: {result.code}")
        state = result.state
        applied += 1
    return state, applied


def count_random_playout(game: Game, state: State, rng: random.Random, max_steps: int = 1_000_000) -> int:
    """Play random legal actions to the end through the fast path; return how many were applied."""
    state, applied = play_randomly(game, state, rng.choice, limit=max_steps)
    if not game.is_finished(state):
        if applied >= max_steps:
            raise AssertionError(f"match did not end within {max_steps} actions")
        raise AssertionError("game not finished but waits for nobody")
    return applied
