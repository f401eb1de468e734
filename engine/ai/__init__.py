"""Computer players: `choose` picks the move of a computer player from what that player may see.

Fairness is structural: `choose` receives the player's view (`game.view(state, player)`) and
the legal actions, never the state, so it cannot read another hand, the stock order or the
table's seed. Everything here is pure and deterministic from its arguments (no clock, no
global random): the same view, legal list, level and seed give the same move.

Levels: "random" (uniform among legal actions), "easy" (a few simple sensible rules per game,
no search) and "strong" (determinized Monte Carlo search on the engines, engine/ai/search.py).
"""

from __future__ import annotations

import random

from engine.ai.levels import LEVELS, easy_move, random_move, strong_move
from engine.core.protocol import Action, Game

__all__ = ["LEVELS", "choose"]


def choose(game: Game, view: dict, legal: list[Action], player: str, level: str, seed: int) -> Action:
    """The move a computer player of `level` makes, seeing only `view` (game.view(state, player),
    which holds what the player may know, including the public history the view carries)
    among `legal` (game.legal_actions(state, player)); `seed` makes the choice repeatable."""
    if not legal:
        raise ValueError(f"{player} has no legal action to choose from")
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; one of {', '.join(LEVELS)}")
    rng = random.Random(f"ai/{game.name}/{player}/{seed}")
    if level == "random":
        return random_move(legal, rng)
    if level == "easy":
        return easy_move(game, view, legal, player, rng)
    return strong_move(game, view, legal, player, rng)
