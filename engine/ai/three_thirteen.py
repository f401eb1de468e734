"""Three Thirteen's computer player: rules of thumb (easy) and dealing what it cannot see (for the search).

Easy takes the discard when it lowers its deadwood, goes out whenever it can, and otherwise
discards the card whose loss leaves the least deadwood (the highest penalty on a tie).
"""

from __future__ import annotations

import random

from engine.core.protocol import Action
from engine.three_thirteen.melds import deadwood_without, least_deadwood
from engine.three_thirteen.rules import MeldRules


def meld_rules(view: dict) -> MeldRules:
    return MeldRules.for_round(view["round"], view["options"])


def _discard(view: dict, legal: list[Action]) -> Action:
    outs = [action for action in legal if action["type"] == "go_out"]
    if outs:
        return outs[0]
    rules = meld_rules(view)
    hand = view["hand"]
    left = deadwood_without(hand, rules)
    return min(
        (action for action in legal if action["type"] == "discard"),
        key=lambda action: (left[action["card"]], -rules.value(action["card"])),
    )


def _draw(view: dict, legal: list[Action]) -> Action:
    top = view["discard_top"]
    stock = next(action for action in legal if action.get("from") == "stock")
    if top is None or not any(action.get("from") == "discard" for action in legal):
        return stock
    rules = meld_rules(view)
    hand = view["hand"]
    now = least_deadwood(hand, rules)
    after = min(deadwood_without([*hand, top], rules).values())
    if after < now or rules.is_wild(top):
        return next(action for action in legal if action.get("from") == "discard")
    return stock


def easy(view: dict, legal: list[Action], rng: random.Random) -> Action:
    if legal[0]["type"] == "draw":
        return _draw(view, legal)
    return _discard(view, legal)
