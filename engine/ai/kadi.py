"""Kadi's computer player: rules of thumb (easy) and dealing what it cannot see (for the search).

Easy: call "Kadi Moja!" and catch a missed call whenever offered; otherwise shed as many cards
as possible, keeping 2s and jokers for answering a penalty; pick a Jack's suit from what stays
in hand; draw only when nothing can be played.
"""

from __future__ import annotations

import random
from collections import Counter

from engine.core.cards import JOKER
from engine.core.protocol import Action
from engine.kadi.cards import DECK, RANK, SUIT
from engine.kadi.scoring import CARD_POINTS

_ORDER = {"accuse": 0, "call": 1, "accept": 2, "play": 3, "unhide": 5, "draw": 6, "pass": 7, "hide": 8}
# Cards worth keeping for later: they answer a penalty or command a suit.
_KEEP = {"2": 6, JOKER: 8, "J": 4, "8": 1, "7": 1}


def _play_score(action: Action, hand: list[str]) -> float:
    cards = action["cards"]
    left = Counter(hand)
    left.subtract(cards)
    rest = [card for card, n in left.items() for _ in range(n)]
    score = 10 * len(cards) + sum(CARD_POINTS["seed"][card] for card in cards) / 10
    score -= sum(_KEEP.get(RANK[card], 0) for card in cards)
    if not rest:
        score += 1000  # going out
    if action.get("call"):
        score += 50 if len(rest) == 1 else -50
    command = action.get("command")
    if command is not None:
        if command.get("power"):
            score -= 3
        else:
            suits = Counter(SUIT[card] for card in rest if card != JOKER)
            score += suits.get(command["suit"], 0)
    return score


def easy(view: dict, legal: list[Action], rng: random.Random) -> Action:
    hand = view.get("hand") or []
    best = min(_ORDER.get(action["type"], 9) for action in legal)
    candidates = [action for action in legal if _ORDER.get(action["type"], 9) == best]
    if best == 3:
        return max(candidates, key=lambda action: _play_score(action, hand))
    return candidates[0]


def unseen_cards(view: dict) -> list[str]:
    """The cards of the deck the player has not seen: in other hands or in the stock."""
    pool = Counter(DECK)
    pool.subtract(view.get("hand") or [])
    if view.get("hidden"):
        pool[view["hidden"]] -= 1
    pool.subtract(view["discard"])
    return [card for card, n in pool.items() for _ in range(max(n, 0))]
