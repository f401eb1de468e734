"""The strong computer player: determinized Monte Carlo search on the engines.

Each iteration deals the cards the player cannot see in one way consistent with its view (the
game module's `Determinizer`: its own hand, every public card and every count are kept), then
tries one of the offered moves on that deal with the engine's own `advance` and plays the rest
of the round out with a fast rollout policy. The moves are chosen by UCB1 over the iterations
(information-set Monte Carlo search with the tree cut at the root, after Cowling, Powley and
Whitehouse 2012: every iteration sees a different deal, so statistics belong to the player's
information set, never to one deal). The result of a rollout is the game module's `outcome`
of the round for the player, in 0..1.

The budget is a number of iterations per decision (the game module's `PLAYOUTS`), never a time:
the same view and seed give the same move on any machine.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from engine.core.protocol import Action, Game

# UCB1's exploration constant for rewards in 0..1.
EXPLORE = 0.7


def search(
    game: Game,
    module: Any,
    view: dict,
    legal: list[Action],
    player: str,
    rng: random.Random,
    playouts: int | None = None,
) -> Action:
    """The move with the best mean outcome over `playouts` determinized rollouts."""
    playouts = playouts or module.PLAYOUTS
    candidates = module.candidates(view, legal) if hasattr(module, "candidates") else legal
    if len(candidates) == 1:
        return candidates[0]
    determinizer = module.Determinizer(view)
    rollout = module.rollout
    count = len(candidates)
    visits = [0] * count
    totals = [0.0] * count
    for iteration in range(max(playouts, count)):
        if iteration < count:
            index = iteration
        else:
            log_n = math.log(iteration)
            index = max(
                range(count),
                key=lambda i: totals[i] / visits[i] + EXPLORE * math.sqrt(log_n / visits[i]),
            )
        state = determinizer.sample(rng)
        result = game.advance(state, player, candidates[index])
        if not result.ok:  # cannot happen with a consistent deal; count it as a loss, not a crash
            visits[index] += 1
            continue
        totals[index] += rollout(game, result.state, player, view, rng)
        visits[index] += 1
    best = max(range(count), key=lambda i: (totals[i] / visits[i] if visits[i] else -1.0, visits[i]))
    return candidates[best]


def play_out(game: Game, state: Any, rng: random.Random, going, limit: int, policy=None) -> tuple[Any, int]:
    """Moves by whoever the game waits for while `going(state)`: `policy(state, mover, legal,
    rng)`'s pick (default: uniform among the legal actions); the end state and how many moves
    were made. A policy reads the whole state: rollouts play a deal the search made up."""
    to_act, legal_actions, advance = game.to_act, game.legal_actions, game.advance
    choice = rng.choice
    steps = 0
    while steps < limit and going(state):
        waiting = to_act(state)
        if not waiting:
            break
        mover = waiting[0] if len(waiting) == 1 else choice(waiting)
        legal = legal_actions(state, mover)
        result = advance(state, mover, choice(legal) if policy is None else policy(state, mover, legal, rng))
        if not result.ok:
            break
        state = result.state
        steps += 1
    return state, steps


def margin(mine: float, others: Sequence[float], scale: float) -> float:
    """0..1 from how far `mine` is ahead of the best of `others` (0.5: level)."""
    if not others:
        return 0.5
    lead = mine - max(others)
    return 0.5 + 0.5 * math.tanh(lead / scale)
