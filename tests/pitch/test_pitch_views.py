"""No view and no event, as a given player (or a spectator) sees it, shows a card they may not see.

A player may see their own hand, the cards played face up this hand (current trick, last trick,
captured tricks), and in `last_hand` the cards of the previous hand, all of which were played.
A `dealt` event shows each player only their own new hand.
"""

from __future__ import annotations

import random

import pytest

from engine.core.protocol import CLOCK
from engine.pitch import GAME, PitchOptions
from engine.pitch.cards import DECK

CARDS = set(DECK)
NAMES = ["amina", "baraka", "chausiku", "dudu", "eshe", "faraji", "gasira"]


def cards_in(value) -> set[str]:
    if isinstance(value, str):
        return {value} if value in CARDS else set()
    if isinstance(value, dict):
        return set().union(*(cards_in(k) | cards_in(v) for k, v in value.items())) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*(cards_in(v) for v in value)) if value else set()
    return set()


def played_this_hand(state) -> set[str]:
    return set(state.trick).union(*state.won)


def check_view(state, player, previous_hand: set[str]):
    view = GAME.view(state, player)
    seat = state.players.index(player) if player else None
    own = set(state.hands[seat]) if player else set()
    public = played_this_hand(state)
    last_hand = view.pop("last_hand")
    assert cards_in(view) <= own | public, (player, cards_in(view) - own - public)
    assert cards_in(last_hand) <= previous_hand | public
    if player:
        assert set(view["hand"]) == own  # the walker does see cards: a leak would be caught
    else:
        assert view["hand"] is None


def check_events(before, after, events, played_card):
    public = played_this_hand(before) | ({played_card} if played_card else set())
    for event in events:
        if event.kind == "dealt":
            assert cards_in(event.view(None)) == set()
        for seat, player in enumerate(before.players):
            seen = cards_in(event.view(player))
            if event.kind == "dealt":
                assert seen == set(after.hands[seat])
            else:
                assert seen <= public | set(before.hands[seat]) | set(after.hands[seat]), (event.kind, player)
        assert cards_in(event.view(None)) <= public, event.kind


@pytest.mark.parametrize(
    "seats, options, matches",
    [(2, {}, 4), (3, {"low_to": "dealt"}, 4), (4, {"partnerships": True, "smudge": True}, 4), (5, {}, 2), (7, {}, 1)],
)
def test_no_view_or_event_shows_a_hidden_card(seats, options, matches):
    rng = random.Random(seats)
    for match in range(matches):
        state = GAME.new(NAMES[:seats], PitchOptions(**options), seed=f"views-{seats}-{match}")
        previous_hand: set[str] = set()
        for _ in range(3000):
            for player in [None, *state.players]:
                check_view(state, player, previous_hand)
            if GAME.is_finished(state):
                break
            [player] = GAME.to_act(state)
            actions = GAME.legal_actions(state, player)
            if actions[0]["type"] == "pass" and rng.random() < 0.6:
                action = actions[0]
            else:
                action = rng.choice(actions)
            if rng.random() < 0.05:
                player, action = CLOCK, {"type": "timeout"}
            result = GAME.apply(state, player, action)
            played = next((e.public["card"] for e in result.events if e.kind == "played"), None)
            check_events(state, result.state, result.events, played)
            if result.state.hand_number != state.hand_number:
                previous_hand = set().union(*state.dealt)
            state = result.state
        assert GAME.is_finished(state)
