"""Lopti's computer player: rules of thumb (easy) and dealing what it cannot see (for the search).

A computer player takes no part in the meta-game: it writes no house rule (it passes with
`no_rule`), never votes, proposes or duels (engine/ai/common.py keeps those actions from it).

Easy puts its strongest cards face up before play, then sheds its lowest ordinary cards
(as many of one rank as it may), keeps the cards that go on anything (2, 3, 7, 10) for when
nothing else fits, and takes the pile only when it must.
"""

from __future__ import annotations

import random

from engine.core.protocol import Action
from engine.lopti.rules import VALUE

SPECIAL = {2: 20, 3: 21, 7: 19, 10: 22}  # cards that go on (almost) anything: worth keeping


def worth(card: str) -> int:
    value = VALUE[card]
    return SPECIAL.get(value, value)


def _setup(view: dict, legal: list[Action]) -> Action:
    swaps = [action for action in legal if action["type"] == "swap"]
    gains = [(worth(action["hand"]) - worth(action["face_up"]), action) for action in swaps]
    gains = [(gain, action) for gain, action in gains if gain > 0]
    if gains:
        return max(gains, key=lambda pair: pair[0])[1]
    return next(action for action in legal if action["type"] == "ready")


def easy(view: dict, legal: list[Action], rng: random.Random) -> Action:
    kinds = {action["type"] for action in legal}
    if "no_rule" in kinds:
        return next(action for action in legal if action["type"] == "no_rule")
    if "ready" in kinds or "swap" in kinds:
        return _setup(view, legal)
    plays = [action for action in legal if action["type"] == "play"]
    if plays:
        return min(plays, key=lambda action: (worth(action["cards"][0]), -len(action["cards"])))
    flips = [action for action in legal if action["type"] == "flip"]
    if flips:
        return flips[0]
    return legal[0]
