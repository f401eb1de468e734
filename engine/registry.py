"""The games Karata knows, by the name used in replay files and tables."""

from __future__ import annotations

import importlib

from engine.core.protocol import Game

GAME_MODULES: dict[str, str] = {
    "lopti": "engine.lopti",
    "kadi": "engine.kadi",
    "pitch": "engine.pitch",
    "euchre3": "engine.euchre3",
    "three_thirteen": "engine.three_thirteen",
}


class UnknownGame(KeyError):
    pass


def get_game(name: str) -> Game:
    if name not in GAME_MODULES:
        raise UnknownGame(name)
    try:
        module = importlib.import_module(GAME_MODULES[name])
    except ModuleNotFoundError as error:
        if error.name == GAME_MODULES[name]:
            raise UnknownGame(name) from None
        raise
    return module.GAME


def available_games() -> list[str]:
    """Games whose engine is installed, in menu order."""
    names = []
    for name in GAME_MODULES:
        try:
            get_game(name)
        except UnknownGame:
            continue
        names.append(name)
    return names
