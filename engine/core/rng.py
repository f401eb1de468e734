"""Randomness as data: every shuffle comes from a generator derived from the table's seed.

A generator is derived from the seed and a label (`rng_for(seed, "deal", 3)`), so a state never
has to carry a generator's internal state: the same seed and label give the same shuffle on any
machine and in any process, which is what makes a replay file reproduce a game exactly.

`shuffled` and `pick` give exactly what `rng_for(...).shuffle` and `rng_for(...).choice` give,
in a fraction of the time: playouts deal often, and `random`'s Python-level seeding and its one
`_randbelow` call per card were most of a deal's cost. They seed the C generator with the very
integer `Random.seed` derives from the label and run `_randbelow`'s rejection sampling inline.
At import they are checked against `random` itself; should this interpreter's `random` work
differently, the slow reference functions are used instead, so a seed never deals differently.
"""

from __future__ import annotations

import random
from _random import Random as _CoreRandom
from collections.abc import Sequence
from hashlib import sha512
from typing import TypeVar

T = TypeVar("T")


def _label(seed: int | str, labels: tuple[object, ...]) -> str:
    return "/".join(str(part) for part in (seed, *labels))


def rng_for(seed: int | str, *labels: object) -> random.Random:
    # A str seed is hashed with SHA-512 by `random`, independent of PYTHONHASHSEED.
    return random.Random(_label(seed, labels))


def _core_generator(label: str) -> _CoreRandom:
    """The C generator inside `random.Random(label)`, seeded as `Random.seed` seeds it (version 2)."""
    raw = label.encode()
    return _CoreRandom(int.from_bytes(raw + sha512(raw).digest(), "big"))


# `(i + 1).bit_length()` for each position a shuffle draws for; grown on demand.
_BITS: list[int] = [(i + 1).bit_length() for i in range(256)]


def _fast_shuffled(items: Sequence[T], seed: int | str, *labels: object) -> list[T]:
    """A new list of `items` in the order `rng_for(seed, *labels).shuffle` puts them."""
    cards = list(items)
    size = len(cards)
    if size > len(_BITS):
        _BITS.extend((i + 1).bit_length() for i in range(len(_BITS), size))
    getrandbits = _core_generator(_label(seed, labels)).getrandbits
    bits = _BITS
    for i in range(size - 1, 0, -1):  # random.shuffle's loop
        width = bits[i]
        j = getrandbits(width)
        while j > i:  # _randbelow(i + 1): draw again until the number is in 0..i
            j = getrandbits(width)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def _fast_pick(items: Sequence[T], seed: int | str, *labels: object) -> T:
    """The item `rng_for(seed, *labels).choice(items)` picks."""
    size = len(items)
    getrandbits = _core_generator(_label(seed, labels)).getrandbits
    width = size.bit_length()
    index = getrandbits(width)
    while index >= size:
        index = getrandbits(width)
    return items[index]


def _reference_shuffled(items: Sequence[T], seed: int | str, *labels: object) -> list[T]:
    cards = list(items)
    rng_for(seed, *labels).shuffle(cards)
    return cards


def _reference_pick(items: Sequence[T], seed: int | str, *labels: object) -> T:
    return rng_for(seed, *labels).choice(items)


def _fast_is_exact() -> bool:
    """Whether the fast functions agree with `random` on this interpreter (checked once, at import)."""
    try:
        for seed in (0, 1, 7, -5, 2**70, "table-42", "ü"):
            for size in (1, 2, 3, 7, 32, 52, 54, 104, 300):
                items = list(range(size))
                if _fast_shuffled(items, seed, "deal", size) != _reference_shuffled(items, seed, "deal", size):
                    return False
                if _fast_pick(items, seed, "dealer") != _reference_pick(items, seed, "dealer"):
                    return False
    except Exception:  # noqa: BLE001 - any surprise: keep to the reference
        return False
    return True


FAST = _fast_is_exact()
if FAST:
    shuffled, pick = _fast_shuffled, _fast_pick
else:
    shuffled, pick = _reference_shuffled, _reference_pick
