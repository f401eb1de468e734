"""The three levels, dispatched per game: random, easy (rules of thumb), strong (search)."""

from __future__ import annotations

import random

from engine.ai import euchre3, kadi, lopti, pitch, three_thirteen
from engine.ai.common import playable
from engine.core.protocol import Action, Game

LEVELS = ("random", "easy", "strong")

# game name -> the module with its `easy(view, legal, rng)` and `determinize(view, rng)`; a game
# without one (newly added) has computer players that move at random at every level.
GAMES = {
    "kadi": kadi,
    "pitch": pitch,
    "euchre3": euchre3,
    "three_thirteen": three_thirteen,
    "lopti": lopti,
}


def random_move(legal: list[Action], rng: random.Random) -> Action:
    return rng.choice(legal)


def easy_move(game: Game, view: dict, legal: list[Action], player: str, rng: random.Random) -> Action:
    legal = playable(game.name, legal)
    if len(legal) == 1 or game.name not in GAMES:
        return random_move(legal, rng)
    return GAMES[game.name].easy(view, legal, rng)


def strong_move(game: Game, view: dict, legal: list[Action], player: str, rng: random.Random) -> Action:
    from engine.ai.search import search  # the search needs the engines; easy and random do not

    legal = playable(game.name, legal)
    if len(legal) == 1 or game.name not in GAMES:
        return random_move(legal, rng)
    module = GAMES[game.name]
    if hasattr(module, "strong"):  # a game whose strong player is not the rollout search
        return module.strong(view, legal, rng)
    return search(game, module, view, legal, player, rng)
