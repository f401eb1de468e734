"""Cheap construction of the protocol's `Event` and `Applied` for the engines' hot paths.

Both are frozen dataclasses, whose generated `__init__` sets each field through
`object.__setattr__`; in a playout that costs more than most of a move. These helpers build
exactly the same objects (same class, same fields, equal and hashed alike) by filling the
instance dictionary directly. Nothing is validated by the dataclass either, so nothing is lost.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Self

from engine.core.protocol import Applied, Event, State

_new = object.__new__


def event(kind: str, public: Mapping[str, Any], private: Mapping[str, Mapping[str, Any]] | None = None) -> Event:
    """`Event(kind, public, private)`; a missing `private` is a fresh empty dict, as in `Event`."""
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


class _Unheard(list[Any]):
    """An events list that keeps nothing, for moves whose events nobody reads (a search's
    rollouts). The hottest paths test `events is UNHEARD` to skip building an event at all."""

    __slots__ = ()

    def append(self, item: Any) -> None:
        pass

    def extend(self, items: Any) -> None:
        pass

    # list's own signature; mypy holds it against list.__add__, which takes only a list.
    def __iadd__(self, items: Iterable[Any]) -> Self:  # type: ignore[misc]
        return self


UNHEARD: list = _Unheard()
