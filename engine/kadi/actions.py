"""The action dicts `legal_actions` offers, built once at import where they do not vary.

Building a dict per offered action on every move cost more than judging the move; callers
never change offered actions (see `Game.legal_actions`), so one dict per card serves all tables.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.core.cards import JOKER, SUITS
from engine.core.protocol import Action
from engine.kadi.cards import DECK, RANK

DRAW: Action = {"type": "draw"}
PASS: Action = {"type": "pass"}
CALL: Action = {"type": "call"}
UNHIDE: Action = {"type": "unhide"}
ACCEPT: Action = {"type": "accept"}
TIMEOUT: Action = {"type": "timeout"}

# A J's play is offered once per command: each suit, then the demand for a power card.
COMMANDS: tuple[Mapping[str, object], ...] = (*({"suit": suit} for suit in SUITS), {"power": True})


def add_play(actions: list[Action], cards: list[str], with_call: bool) -> None:
    """Append the offered forms of playing `cards`: one per command for a J, each followed by
    its "play + call" form when `with_call`."""
    if RANK[cards[0]] == "J":
        for command in COMMANDS:
            actions.append({"type": "play", "cards": cards, "command": command})
            if with_call:
                actions.append({"type": "play", "cards": cards, "command": command, "call": True})
    else:
        actions.append({"type": "play", "cards": cards})
        if with_call:
            actions.append({"type": "play", "cards": cards, "call": True})


def _offers(cards: list[str], with_call: bool) -> tuple[Action, ...]:
    actions: list[Action] = []
    add_play(actions, cards, with_call)
    return tuple(actions)


# The offers of playing one card, and a pair (first card, then the other; not jokers), that
# does not go out, indexed by whether "play + call" is offered with it (`with_call`).
SINGLE: tuple[dict[str, tuple[Action, ...]], ...] = tuple(
    {card: _offers([card], with_call) for card in DECK} for with_call in (False, True)
)
PAIR: tuple[dict[tuple[str, str], tuple[Action, ...]], ...] = tuple(
    {
        (first, other): _offers([first, other], with_call)
        for first in DECK
        for other in DECK
        if first != other and first != JOKER and RANK[first] == RANK[other]
    }
    for with_call in (False, True)
)
HIDE: dict[str, Action] = {card: {"type": "hide", "card": card} for card in DECK}
