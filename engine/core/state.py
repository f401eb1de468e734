"""The one shape of every engine's state: a slotted record that `advance` changes in place.

A game's state class derives from `GameState` and declares its fields in `__slots__`. It gives:
- `copy()`: a state that `advance` may change without touching this one. It copies exactly the
  containers `advance` changes in place (the class docstring names them) and shares every
  other value, which the rules only ever replace. `Game.apply` is `advance` on `copy()`, so
  one rules path serves both.
- `to_dict()` / `from_dict(data)`: the state as JSON-ready data without loss, and back (the
  game's `dump` and `load`). Values derived from other fields (option flags, lookup tables,
  caches) are not dumped; `from_dict` rebuilds them.
Two states are equal when their dumps are.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self


class GameState:
    """Base of the engines' states; see the module docstring for what a subclass provides."""

    __slots__ = ()

    def copy(self) -> Self:
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        raise NotImplementedError

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.to_dict() == other.to_dict()

    # Equal by value and changed in place: unhashable, which typeshed's object.__hash__ cannot say.
    __hash__ = None  # type: ignore[assignment]
