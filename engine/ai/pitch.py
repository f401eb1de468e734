"""Pitch's computer player: rules of thumb (easy) and dealing what it cannot see (for the search).

Easy bids what its best suit is likely to make (high, low, jack, a share of game), and in play
takes tricks worth taking with the cheapest winning card, else throws its least useful card.
"""

from __future__ import annotations

import random

from engine.core.protocol import Action
from engine.pitch.cards import DECK, RANK, SUIT

_GAME_POINTS = {"10": 10, "A": 4, "K": 3, "Q": 2, "J": 1}


def _rank(card: str) -> int:
    return RANK[card]


def suit_estimate(hand: list[str], suit: str) -> float:
    """Roughly how many of high, low, jack and game a hand makes with `suit` as trumps."""
    trumps = sorted((_rank(card) for card in hand if SUIT[card] == suit), reverse=True)
    if not trumps:
        return 0.0
    points = 0.0
    points += 1.0 if trumps[0] == 14 else 0.6 if trumps[0] == 13 else 0.2
    points += 0.8 if trumps[-1] <= 3 else 0.4 if trumps[-1] <= 5 else 0.1
    if "J" + suit in hand:
        points += 0.8 if len(trumps) >= 3 else 0.5
    points += 0.15 * (len(trumps) - 1)
    return points


def _bid(view: dict, legal: list[Action]) -> Action:
    hand = view["hand"]
    estimate = max(suit_estimate(hand, suit) for suit in "SHDC")
    bids = [action for action in legal if action["type"] == "bid"]
    passing = [action for action in legal if action["type"] == "pass"]
    wanted = int(estimate + 0.3)
    affordable = [action for action in bids if action["value"] <= wanted]
    if affordable:
        return min(affordable, key=lambda action: action["value"])
    if passing:
        return passing[0]
    return min(bids, key=lambda action: action["value"])


def _power(card: str, led: str, trump: str | None) -> int:
    return _rank(card) + (20 if SUIT[card] == trump else 0 if SUIT[card] == led else -20)


def _play(view: dict, legal: list[Action]) -> Action:
    trump = view["trump"]
    trick = [play["card"] for play in view["trick"]]
    cards = [action["card"] for action in legal]
    if trump is None:  # the pitcher leads and names trumps: its best suit, high card first
        suit = max("SHDC", key=lambda s: suit_estimate(view["hand"], s))
        return _action(legal, max((c for c in cards if SUIT[c] == suit), key=_rank, default=max(cards, key=_rank)))

    def cheap(card: str) -> tuple:  # what to throw away: no points, no trumps, low rank
        return (SUIT[card] == trump, _GAME_POINTS.get(card[:-1], 0), _rank(card))

    if not trick:
        trumps = [c for c in cards if SUIT[c] == trump]
        if trumps and max(map(_rank, trumps)) >= 13:
            return _action(legal, max(trumps, key=_rank))
        return _action(legal, min(cards, key=cheap))
    led = SUIT[trick[0]]
    best = max(_power(card, led, trump) for card in trick)
    winners = [c for c in cards if _power(c, led, trump) > best]
    worth = sum(_GAME_POINTS.get(card[:-1], 0) for card in trick) + sum(
        3 for card in trick if SUIT[card] == trump and (card[:-1] == "J" or _rank(card) <= 3)
    )
    last = len(trick) == len(view["players"]) - 1
    if winners and (worth >= 3 or last):
        return _action(legal, min(winners, key=lambda c: _power(c, led, trump)))
    return _action(legal, min(cards, key=cheap))


def _action(legal: list[Action], card: str) -> Action:
    return next(action for action in legal if action.get("card") == card)


def easy(view: dict, legal: list[Action], rng: random.Random) -> Action:
    if legal[0]["type"] == "play":
        return _play(view, legal)
    return _bid(view, legal)


__all__ = ["DECK", "easy", "suit_estimate"]
