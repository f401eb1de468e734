"""Euchre-3's computer player: rules of thumb (easy) and dealing what it cannot see (for the search).

Easy makes trumps when its hand is strong in that suit (bowers, aces, length), plays with the
dummy rather than alone, never defends alone, and in play wins a trick with its cheapest
winning card when its side is not already winning it, else throws its weakest card.
"""

from __future__ import annotations

import random

from engine.core.protocol import Action
from engine.euchre3.ranking import EFFECTIVE_SUIT, SAME_COLOUR, STRENGTH_KEY, TRICK_VALUE

_TRUMP_WORTH = {"J": 3.0, "A": 2.0, "K": 1.6, "Q": 1.3, "10": 1.1, "9": 1.0, "8": 0.9, "7": 0.8}


def strength(cards, trump: str) -> float:
    """How good `cards` are with `trump` as trumps: the bowers and high trumps count most."""
    total = 0.0
    for card in cards:
        if EFFECTIVE_SUIT[trump][card] == trump:
            total += 3.5 if card == "J" + trump else _TRUMP_WORTH[card[:-1]]
        elif card[:-1] == "A":
            total += 0.8
    return total


_MAKE = 6.5  # strength needed to make trumps (about three good trumps)


def _weakest(cards, trump: str) -> str:
    return max(cards, key=STRENGTH_KEY[trump].__getitem__)


def _play(view: dict, legal: list[Action]) -> Action:
    trump = view["trump"]
    cards = [action["card"] for action in legal]
    trick = [(play["player"], play["card"]) for play in view["trick"]]
    me = view["you"]
    maker = view["maker"]
    if not trick:
        best = min(cards, key=STRENGTH_KEY[trump].__getitem__)
        if EFFECTIVE_SUIT[trump][best] == trump and me == maker or best[:-1] == "A":
            return _action(legal, best)
        return _action(legal, _weakest(cards, trump))
    led = EFFECTIVE_SUIT[trump][trick[0][1]]
    value = TRICK_VALUE[trump][led]
    leader_player, top = max(trick, key=lambda play: value[play[1]])
    partners = leader_player != maker and me != maker  # the defenders are a side
    if partners:
        return _action(legal, _weakest(cards, trump))
    winners = [card for card in cards if value[card] > value[top]]
    if winners:
        return _action(legal, min(winners, key=value.__getitem__))
    return _action(legal, _weakest(cards, trump))


def _action(legal: list[Action], card: str) -> Action:
    return next(action for action in legal if action.get("card") == card)


def easy(view: dict, legal: list[Action], rng: random.Random) -> Action:
    kinds = {action["type"] for action in legal}
    hand = view.get("hand") or []
    up = view["up_card"]
    if "play" in kinds:
        return _play(view, legal)
    if "keep" in kinds:
        trump = view["trump"]
        return max(legal, key=lambda action: strength(action["cards"], trump))
    if "pick_up" in kinds:
        trump = up[-1]
        return max(
            (action for action in legal if action["type"] == "pick_up"),
            key=lambda action: strength([c for c in [*hand, up] if c != action["discard"]], trump),
        )
    if "with_dummy" in kinds:
        return next(action for action in legal if action["type"] == "with_dummy")
    if "accept" in kinds:
        accept = next(action for action in legal if action["type"] == "accept")
        cards = hand + [up] if view["dealer"] == view["you"] else hand
        if strength(cards, up[-1]) >= _MAKE:
            return accept
        return next((action for action in legal if action["type"] == "pass"), accept)
    if "name" in kinds:
        names = [action for action in legal if action["type"] == "name"]
        best = max(names, key=lambda action: strength(hand, action["suit"]))
        if strength(hand, best["suit"]) >= _MAKE or "pass" not in kinds:
            return best
    if "pass" in kinds:
        return next(action for action in legal if action["type"] == "pass")
    if "alone" in kinds and all(action["type"] == "alone" for action in legal):
        trump = view["trump"]
        return max(legal, key=lambda action: strength([c for c in hand if c != action.get("discard")], trump))
    return legal[0]


__all__ = ["SAME_COLOUR", "easy", "strength"]
