"""Checks that an action is of a game's vocabulary before any rule is asked (malformed vs refused).

A game declares `action_fields`: for each action type, its fields and their kinds. Kinds:
`card`, `cards`, `int`, `bool`, `str`, `player`, `object`; a leading `?` marks an optional field.
Values of the right kind but out of range (a card not in the deck, `flip` 5) are for the rules
to refuse, not for this check.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core.cards import is_card_code, parse_card

# The pseudo-player whose only action is {"type": "timeout"}: the turn timer ran out.
CLOCK = "@clock"


class MalformedAction(ValueError):
    """An action that is not of the game's vocabulary (unknown type, bad card code, wrong field)."""


def _kind_ok(kind: str, value: Any, players: Sequence[str]) -> bool:
    if kind == "card":
        return is_card_code(value)
    if kind == "cards":
        return isinstance(value, list) and all(is_card_code(card) for card in value)
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "str":
        return isinstance(value, str)
    if kind == "player":
        return isinstance(value, str) and value in players
    if kind == "object":
        return isinstance(value, dict)
    if kind == "any":
        return True
    raise ValueError(f"unknown field kind {kind!r}")


def check_action(
    fields_by_type: Mapping[str, Mapping[str, str]],
    player: str,
    action: Any,
    players: Sequence[str],
) -> dict[str, Any]:
    """Return the action with card codes in canonical case; raise MalformedAction otherwise."""
    if player != CLOCK and player not in players:
        raise MalformedAction(f"unknown player {player!r}")
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise MalformedAction("an action is an object with a string 'type'")
    kind = action["type"]
    if player == CLOCK:
        if kind != "timeout" or len(action) != 1:
            raise MalformedAction("@clock can only time out")
        return {"type": "timeout"}
    if kind not in fields_by_type:
        raise MalformedAction(f"unknown action type {kind!r}")
    fields = fields_by_type[kind]
    canonical: dict[str, Any] = {"type": kind}
    for name, value in action.items():
        if name == "type":
            continue
        if name not in fields:
            raise MalformedAction(f"action {kind!r} has no field {name!r}")
        field_kind = fields[name].lstrip("?")
        if not _kind_ok(field_kind, value, players):
            raise MalformedAction(f"action {kind!r}: field {name!r} must be {field_kind}")
        if field_kind == "card":
            value = parse_card(value)
        elif field_kind == "cards":
            value = [parse_card(card) for card in value]
        canonical[name] = value
    for name, field_kind in fields.items():
        if not field_kind.startswith("?") and name not in canonical:
            raise MalformedAction(f"action {kind!r} needs field {name!r}")
    return canonical
