"""Cheap construction of the core protocol's `Event` and `Applied` for Lopti's hot path.

Both are frozen dataclasses, whose generated `__init__` sets each field through
`object.__setattr__` (about twice the cost of everything else a Lopti action does). These
helpers build exactly the same objects (same class, same fields, equal and hashed the same) by
filling the instance dictionary directly. Field values are never validated by the dataclass
either, so nothing is lost.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.protocol import Applied, Event, State

_new = object.__new__


def event(kind: str, public: Mapping[str, Any], private: Mapping[str, Mapping[str, Any]] | None = None) -> Event:
    """`Event(kind, public, private)`; `private` defaults to a fresh empty dict, as in `Event`."""
    made = _new(Event)
    fields = made.__dict__
    fields["kind"] = kind
    fields["public"] = public
    fields["private"] = {} if private is None else private
    return made


def applied(state: State, events: list[Event]) -> Applied:
    """`Applied(state, events)`."""
    made = _new(Applied)
    fields = made.__dict__
    fields["state"] = state
    fields["events"] = events
    return made
