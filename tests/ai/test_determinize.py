"""The strong player's deals of what it cannot see are consistent with what it sees: the
player, looking at a deal, would see exactly its own view, and every card is somewhere once."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tests.ai.helpers import GAMES, MODULES, midgame

# Lopti's open vote and duel are not rebuilt: a computer player takes no part in them.
NOT_REBUILT = {"lopti": ("vote", "duel")}


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", range(6))
def test_a_deal_of_the_unseen_cards_looks_like_the_view(name, seed):
    game, state, player = midgame(name, 100 + seed)
    view = game.view(state, player)
    dealt = MODULES[name].determinize(view, random.Random(seed))
    seen = game.view(dealt, player)
    for key in NOT_REBUILT.get(name, ()):
        seen.pop(key), view.pop(key)
    assert seen == view
    assert Counter(_all_cards(game.dump(dealt))) == Counter(_all_cards(game.dump(state)))


def _all_cards(dump: dict) -> list[str]:
    """The cards in play in a dumped state: every zone a card can be in."""
    zones = ("hands", "stock", "discard", "pile", "chain", "burned", "face_up", "face_down", "kitty", "dummy",
             "discards", "dead", "won", "trick", "played", "table")  # fmt: skip
    cards: list[str] = []

    def walk(value):
        if isinstance(value, str):
            cards.append(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, (list, tuple)):
            for item in value:
                if isinstance(item, int) or item is None:
                    continue
                walk(item)

    for zone in zones:
        if zone in dump:
            walk(dump[zone])
    return cards
