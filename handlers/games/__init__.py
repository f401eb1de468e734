"""Renderers by game name; a game without its own renderer gets the plain default."""

from __future__ import annotations

import importlib

from handlers.games.base import GameRenderer

_RENDERERS = {
    "kadi": "handlers.games.kadi",
    "lopti": "handlers.games.lopti",
    "pitch": "handlers.games.pitch",
    "euchre3": "handlers.games.euchre3",
    "three_thirteen": "handlers.games.three_thirteen",
}


def renderer_for(game: str) -> GameRenderer:
    module_name = _RENDERERS.get(game)
    if module_name:
        try:
            return importlib.import_module(module_name).RENDERER
        except ModuleNotFoundError as error:
            if error.name != module_name:
                raise
    fallback = GameRenderer()
    fallback.game = game
    fallback.title = game
    return fallback
