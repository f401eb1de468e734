"""A game's renderer is the module `handlers.presentation.games.<game>` (its `RENDERER`), named as in the engine
registry; a game without one gets the plain default, so any engine is playable."""

from __future__ import annotations

import functools
import importlib

from engine.registry import GAME_MODULES
from handlers.presentation.games.base import GameRenderer


@functools.cache
def renderer_for(game: str) -> GameRenderer:
    if game in GAME_MODULES:
        module_name = f"{__name__}.{game}"
        try:
            return importlib.import_module(module_name).RENDERER
        except ModuleNotFoundError as error:
            if error.name != module_name:
                raise
    fallback = GameRenderer()
    fallback.game = game
    fallback.title = game
    return fallback
