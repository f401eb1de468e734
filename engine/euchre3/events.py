"""Cheap construction of the protocol's `Event` and `Applied` for the hot paths.

Both are frozen dataclasses in engine.core; their generated `__init__` sets each field through
`object.__setattr__` (and builds default dicts), which costs more than the move itself. These
helpers make instances of exactly those classes with exactly the same fields (so `==`, `view`,
`to_json` and `isinstance` behave as for the constructor's objects) by filling the instance
dict directly. The objects stay immutable to callers: the classes' frozen `__setattr__` still
guards them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.protocol import Applied, Event

_new = object.__new__


def event(kind: str, public: Mapping[str, Any], private: Mapping[str, Mapping[str, Any]] | None = None) -> Event:
    """`Event(kind, public, private)`; a missing `private` is a fresh empty dict, as in `Event`."""
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
