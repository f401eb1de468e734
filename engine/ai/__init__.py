"""Computer players: the move a computer seat makes, from what that seat may see.

A placeholder with the interface the table service calls: every level picks among the legal
actions by the seed alone. Engineer A's module (easy and strong players) replaces this file.
"""

from __future__ import annotations

from engine.core.protocol import Action, Game

LEVELS = ("random", "easy", "strong")


def choose(game: Game, view: dict, legal: list[Action], player: str, level: str, seed: int) -> Action:
    """The move a computer player of `level` makes, seeing only `view` (game.view(state, player),
    which holds what the player may know, including the public history the view carries)
    among `legal` (game.legal_actions(state, player)); `seed` makes the choice repeatable."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}")
    if not legal:
        raise ValueError("no legal action to choose from")
    return legal[seed % len(legal)]
