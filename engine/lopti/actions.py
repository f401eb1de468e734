"""Precomputed tables behind `Lopti.legal_actions` and the fast check of a listed play.

A hand is summarised as a 52-bit mask: card `rank + suit` is bit 4 * (value - 2) + suit index
(suit order S, H, D, C), so the four bits of one rank form a "nibble" and ascending bits are
ascending natural rank. Which ranks may be played on the current pile is a pair of masks per
pile top and options (`situation`), built from `rules.rank_mode`, and the sizes that may match
the top rank are built from `rules.matches_enough`: the tables cache the rules of section 5.2,
they do not restate them.

The play actions themselves are built once: one dict per rank and set of suits, shared by
every list `legal_actions` returns. They are the canonical form (cards of one rank in suit
order) and must be treated as read-only by callers; each returned list is new.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from engine.core.cards import SUITS
from engine.lopti.rules import ALL, DECK, MATCH, THREE, VALUE, matches_enough, rank_mode

Action = dict[str, Any]

# card -> its bit; rank value -> the mask of its four cards.
BIT: dict[str, int] = {card: 1 << (4 * (VALUE[card] - 2) + SUITS.index(card[-1])) for card in DECK}
RANK_MASK: dict[int, int] = {value: 15 << (4 * (value - 2)) for value in range(2, 15)}
ALL_CARDS = (1 << 52) - 1
THREES = RANK_MASK[THREE]

TAKE: Action = {"type": "take"}
FLIPS: tuple[Action, ...] = tuple({"type": "flip", "position": position} for position in range(3))

# value -> suit subset (4-bit) -> the play of exactly those cards.
_PLAY: dict[int, dict[int, Action]] = {}
# value -> held suits (4-bit) -> the plays of those cards, by size 1..n, in combination order.
_BY_COUNT: dict[int, dict[int, list[list[Action]]]] = {}
# A listed play's cards (as a tuple) -> (value, count, mask): same rank, distinct, in suit order.
COMBO: dict[tuple[str, ...], tuple[int, int, int]] = {}

for _value in range(2, 15):
    _cards = [card for card in DECK if VALUE[card] == _value]
    _cards.sort(key=lambda card: SUITS.index(card[-1]))
    _PLAY[_value] = {}
    for _size in range(1, 5):
        for _combo in combinations(_cards, _size):
            _subset = sum(1 << SUITS.index(card[-1]) for card in _combo)
            _PLAY[_value][_subset] = {"type": "play", "cards": list(_combo)}
            COMBO[_combo] = (_value, _size, sum(BIT[card] for card in _combo))
    _BY_COUNT[_value] = {}
    for _held in range(1, 16):
        _suits = [suit for suit in range(4) if _held >> suit & 1]
        _BY_COUNT[_value][_held] = [
            [_PLAY[_value][sum(1 << suit for suit in combo)] for combo in combinations(_suits, size)]
            for size in range(1, len(_suits) + 1)
        ]

# Every play action there is (each listed dict is one of these).
ALL_PLAYS: tuple[Action, ...] = tuple(play for by_suits in _PLAY.values() for play in by_suits.values())


def _situation(top: int, ten_on_seven: bool, sevens_stack_singly: bool) -> tuple[int, int, int]:
    """(mask of ranks playable in any number, mask of the rank that must match, its tag)."""
    any_number = match = tag = 0
    for value in range(2, 15):
        mode = rank_mode(value, top, ten_on_seven, sevens_stack_singly)
        if mode is ALL:
            any_number |= RANK_MASK[value]
        elif mode is MATCH:
            match |= RANK_MASK[value]
            tag = value << 60
    return any_number, match, tag


# SITUATION[top][ten_on_seven][sevens_stack_singly] (booleans index as 0 / 1).
SITUATION: list[list[list[tuple[int, int, int]]]] = [
    [[_situation(top, bool(ten), bool(sevens)) for sevens in (0, 1)] for ten in (0, 1)] for top in range(15)
]

# MATCH_SIZES[last_play][run]: bit `size` is set when a play of `size` cards (1-4) may match
# the top rank: more cards than the previous play, or completing all four (section 5.2).
MATCH_SIZES: list[list[int]] = [
    [sum(1 << size for size in range(1, 5) if matches_enough(size, last_play, run)) for run in range(53)]
    for last_play in range(53)
]
# COUNT_TAG[last_play][run]: the same sizes (bit size - 1) placed at bit 56, for a `plays` key.
COUNT_TAG: list[list[int]] = [[sizes >> 1 << 56 for sizes in row] for row in MATCH_SIZES]


# FOLLOW[ten_on_seven, sevens_stack_singly][top card of the pile] = SITUATION of its rank: a state
# keeps the table of its options (`LoptiState.follow`), so the hot paths make one lookup, not four.
FOLLOW: dict[tuple[bool, bool], dict[str, tuple[int, int, int]]] = {
    (ten, sevens): {card: SITUATION[VALUE[card]][ten][sevens] for card in DECK}
    for ten in (False, True)
    for sevens in (False, True)
}

# Masks of the four chunks of four ranks each (the last holds only the aces).
CHUNK_0, CHUNK_1, CHUNK_2, CHUNK_3 = CHUNKS = tuple(0xFFFF << shift for shift in (0, 16, 32, 48))
PLAYS_CACHE_SIZE = 1 << 16


def _plays(key: int) -> list[Action]:
    """The plays of the held ranks in `key & ALL_CARDS` (one chunk of four ranks), ascending by
    rank, then size, then combination order. If bits 60+ name a value (the match rank), only
    the sizes in bits 56-59 are listed for it."""
    match_value = key >> 60
    sizes = key >> 56 & 15
    listed = []
    for value in range(2, 15):
        held = key >> (4 * (value - 2)) & 15
        if not held:
            continue
        for size, group in enumerate(_BY_COUNT[value][held], start=1):
            if value != match_value or sizes >> (size - 1) & 1:
                listed.extend(group)
    return listed


class _PlaysCache(dict):
    """key -> `_plays(key)`, built on first use (`PLAYS[key]`: one subscript on the hot path);
    cleared when it grows past PLAYS_CACHE_SIZE, to bound its memory. Keep results read-only."""

    def __missing__(self, key: int) -> list[Action]:
        if len(self) >= PLAYS_CACHE_SIZE:
            self.clear()
        listed = self[key] = _plays(key)
        return listed


PLAYS: dict[int, list[Action]] = _PlaysCache()
