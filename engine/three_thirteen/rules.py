"""Card facts of Three Thirteen: ranks (ace low), penalty values, the round's wild rank, melds.

A `MeldRules` bundles what decides whether cards meld and what they cost in a given round: the
wild rank and the table options that touch melds and penalties. `is_valid_meld` is the rule
itself (T12, T13-A1 to T13-A3); the meld solver in `melds.py` must agree with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping

from engine.core.cards import JOKER, Card, deck_52

# T4: K high ... A low. Rank numbers 1 (ace) to 13 (king).
RANK_NUMBER = {
    rank: number for number, rank in enumerate(("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"), 1)
}
RANK_CODE = {number: code for code, number in RANK_NUMBER.items()}
SUIT_ORDER = {"S": 0, "H": 1, "D": 2, "C": 3}

ROUNDS = 11
TIEBREAK_ROUND = 12  # T13-A12 option: 13 cards, kings wild
JOKER_VALUE = 20


def deal_size(round_number: int) -> int:
    """T7: 3 cards in round 1 up to 13 in round 11; the tie-break round deals 13."""
    return min(round_number + 2, 13)


def wild_rank(round_number: int) -> int:
    """T14: the wild rank equals the number of cards dealt (3s in round 1 ... kings in round 11)."""
    return deal_size(round_number)


def packs_for(player_count: int) -> int:
    """T3 / T13-A9: one pack for two players, two for three to seven, three for eight."""
    if player_count <= 2:
        return 1
    return 2 if player_count <= 7 else 3


def game_deck(player_count: int, jokers: int) -> list[Card]:
    return deck_52() * packs_for(player_count) + [JOKER] * jokers


@dataclass(frozen=True)
class MeldRules:
    """What melds and what it costs in one round."""

    wild: int  # the wild rank number (3..13)
    wild_only: bool = False
    ace_high: bool = False
    court_rank: bool = False

    @classmethod
    def for_round(cls, round_number: int, options: Mapping[str, Any]) -> MeldRules:
        return _rules_for(wild_rank(round_number), options["wild_only_melds"], options["ace"], options["court_values"])

    def is_wild(self, card: Card) -> bool:
        return card == JOKER or RANK_NUMBER[card[:-1]] == self.wild

    def value(self, card: Card) -> int:
        """T16 / T13-A6: the penalty of an unmelded card (wild cards score their natural value)."""
        if card == JOKER:
            return JOKER_VALUE
        rank = RANK_NUMBER[card[:-1]]
        if rank == 1:
            return 15 if self.ace_high else 1
        if rank > 10:
            return rank if self.court_rank else 10
        return rank

    def is_valid_meld(self, cards: list[Card]) -> bool:
        """T12, T15, T13-A1..A3: a set or a run of 3+ cards with at least one natural card."""
        if len(cards) < 3:
            return False
        naturals = [card for card in cards if not self.is_wild(card)]
        if not naturals:
            return self.wild_only
        ranks = [RANK_NUMBER[card[:-1]] for card in naturals]
        if len(set(ranks)) == 1:
            return True  # a set (T13-A3): suits irrelevant, any size
        if len({card[-1] for card in naturals}) != 1 or len(set(ranks)) != len(ranks):
            return False
        length = len(cards)
        if length > 13:
            return False
        if max(ranks) - min(ranks) + 1 <= length:
            return True
        if self.ace_high and 1 in ranks:
            high = [14 if rank == 1 else rank for rank in ranks]
            return max(high) - min(high) + 1 <= length
        return False


@lru_cache(maxsize=None)
def _rules_for(wild: int, wild_only: bool, ace: str, court_values: str) -> MeldRules:
    return MeldRules(wild, wild_only, ace == "high_or_low", court_values == "rank")


_SORT_KEY = {rank + suit: (SUIT_ORDER[suit], number) for rank, number in RANK_NUMBER.items() for suit in SUIT_ORDER}
_SORT_KEY[JOKER] = (4, 0)


def card_sort_key(card: Card) -> tuple[int, int]:
    """Display order: by suit, then rank (ace low); jokers last."""
    return _SORT_KEY[card]


def sorted_cards(cards: list[Card]) -> list[Card]:
    return sorted(cards, key=card_sort_key)
