"""Randomness as data: every shuffle comes from a generator derived from the table's seed.

A generator is derived from the seed and a label (`rng_for(seed, "deal", 3)`), so a state never
has to carry a generator's internal state: the same seed and label give the same shuffle on any
machine and in any process, which is what makes a replay file reproduce a game exactly.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def rng_for(seed: int | str, *labels: object) -> random.Random:
    # A str seed is hashed with SHA-512 by `random`, independent of PYTHONHASHSEED.
    return random.Random("/".join(str(part) for part in (seed, *labels)))


def shuffled(items: Sequence[T], seed: int | str, *labels: object) -> list[T]:
    cards = list(items)
    rng_for(seed, *labels).shuffle(cards)
    return cards
