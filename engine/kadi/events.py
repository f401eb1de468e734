"""Cheap constructors for the protocol's `Event` and `Applied` records, for the inner loop.

Both are frozen dataclasses, whose generated `__init__` sets each field through
`object.__setattr__`; that costs more than the rest of a typical Kadi action. These helpers
make the very same objects (same class, same fields in the same order, so `==`, `repr`,
`view` and `to_json` cannot tell them apart) by filling the instance dictionary directly.
"""

from __future__ import annotations

from typing import Any

from engine.core.protocol import Applied, Event

_new = object.__new__


def event(kind: str, public: dict[str, Any], private: dict[str, Any] | None = None) -> Event:
    """`Event(kind, public, private or {})`."""
    made = _new(Event)
    fields = made.__dict__
    fields["kind"] = kind
    fields["public"] = public
    fields["private"] = {} if private is None else private
    return made


def applied(state: Any, events: list[Event]) -> Applied:
    """`Applied(state, events)`."""
    made = _new(Applied)
    fields = made.__dict__
    fields["state"] = state
    fields["events"] = events
    return made
