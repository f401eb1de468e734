"""What a watcher must never be sent: every card the engine's state holds out of sight (hands,
stock, kitty, dummy, face-down cards...), checked against a watcher's frame (its GET or a socket
message: one text, handlers/webapp/watch.py)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from handlers.presentation import cards as show

# Where each game's state keeps cards nobody at the table may see (engine/*/state.py).
HIDDEN_KEYS = {
    "kadi": ("hands", "hidden", "stock"),
    "lopti": ("hands", "face_down", "stock", "burned"),
    "pitch": ("hands", "dealt", "stock"),
    "euchre3": ("hands", "dummy", "kitty", "discards"),
    "three_thirteen": ("hands", "stock"),
}


def codes_in(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from codes_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from codes_in(item)


def hidden_cards(game, state) -> set[str]:
    """The cards the state holds out of sight, less any the engine's spectator view shows (a card
    Pitch dealt that was played since; a match's end laying hands open)."""
    dumped = game.dump(state)
    held = {code for key in HIDDEN_KEYS[game.name] for code in codes_in(dumped[key])}
    public = set(codes_in(game.view(state, None)))
    return held - public


def leaked(frame: str, hidden: set[str]) -> list[str]:
    """The hidden cards a watcher's frame carries: as a card code anywhere in its JSON, or drawn
    as a card (5♥️) in a sentence of the page's (prompt, notes; the event lines say only cards
    that were played, which may be back in a stock since)."""
    found = [code for code in hidden if f'"{code}"' in frame]
    snap = json.loads(frame)
    words = [snap.get("prompt") or ""]
    words += [seat.get("note") or "" for seat in snap.get("seats", [])]
    words += [zone.get("note") or "" for zone in snap.get("zones", [])]
    said = "\n".join(words)
    return found + [code for code in hidden if show.card(code) in said]
