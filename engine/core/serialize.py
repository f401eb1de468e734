"""A table's state as JSON and back, with the game's schema version, so stored tables survive upgrades."""

from __future__ import annotations

import json
from typing import Any

from engine.core.protocol import Game, State


class StateVersionError(ValueError):
    pass


def state_to_json(game: Game, state: State) -> str:
    envelope = {"game": game.name, "schema": game.schema_version, "state": game.dump(state)}
    return json.dumps(envelope, separators=(",", ":"), sort_keys=True)


def state_from_json(game: Game, text: str) -> State:
    envelope: dict[str, Any] = json.loads(text)
    if envelope.get("game") != game.name:
        raise StateVersionError(f"state is for {envelope.get('game')!r}, not {game.name!r}")
    if envelope.get("schema", 0) > game.schema_version:
        raise StateVersionError(f"state schema {envelope['schema']} is newer than this engine's")
    return game.load(envelope["state"])
