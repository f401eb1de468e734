"""No view and no event, as a given player or a spectator sees it, shows a card they may not see."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.kadi import GAME
from tests.kadi.test_kadi_helpers import card_strings, random_walk
from tests.kadi.test_kadi_properties import new_match

# Cards a public field may show on purpose: turned-up start cards and hands revealed for scoring.
# Played cards are public too (they were checked to come from the player's hand).
REVEALING = {"dealt": ("start_card", "buried"), "round_scored": ("hands",), "played": ("cards",)}


def own_cards(state, player):
    if player is None or player not in state.hands:
        return set()
    cards = set(state.hands[player])
    if state.hidden.get(player) is not None:
        cards.add(state.hidden[player])
    return cards


def check_view(state, viewer):
    view = GAME.view(state, viewer)
    allowed = own_cards(state, viewer) | set(state.discard)
    leaked = set(card_strings(view)) - allowed
    assert not leaked, (viewer, leaked, view)
    if viewer is None:
        assert "hand" not in view and "hidden" not in view and "drawn" not in view
    else:
        assert view["hand"] == (state.hands[viewer] if viewer in state.seats else [])
        assert sum(view["counts"].values()) == sum(len(state.hands[p]) for p in state.seats)


def check_event(event, before, after, viewer, held_at_round_end):
    seen = event.view(viewer)
    if event.kind == "played":
        assert set(event.public["cards"]) <= set(before.hands[event.public["player"]])
    allowed = own_cards(before, viewer) | own_cards(after, viewer) | set(before.discard) | set(after.discard)
    allowed |= held_at_round_end
    for name in REVEALING.get(event.kind, ()):
        allowed |= set(card_strings(event.public.get(name)))
    leaked = set(card_strings(seen)) - allowed
    assert not leaked, (viewer, event.kind, leaked, seen)


@settings(deadline=None, max_examples=10)
@given(seed=st.integers(0, 10**9), table=st.integers(0, 10**6))
def test_no_view_or_event_shows_a_card_its_viewer_may_not_see(seed, table):
    """Walk a random match; check every player's and the spectator's view and events at every step."""
    state, players, _ = new_match(seed, table)
    viewers = [*players, None]
    for viewer in viewers:
        check_view(state, viewer)
    for _player, _action, before, after, events in random_walk(state, random.Random(seed)):
        for viewer in viewers:
            check_view(after, viewer)
            # A round that ends within the action: the viewer's cards of that moment were theirs too.
            held = {c for e in events if e.kind == "round_scored" for c in e.public["hands"].get(viewer, [])}
            for event in events:
                check_event(event, before, after, viewer, held)


def test_a_drawn_card_is_private_to_its_drawer():
    """The table learns that a card was drawn, never which one (Game Park style per-recipient events)."""
    state, players, _ = new_match(5, 5)
    rng = random.Random(5)
    seen_draw = False
    for _player, _action, _before, _after, events in random_walk(state, rng):
        for event in events:
            if event.kind in ("drew", "penalty_drawn", "missed_call", "power_finish_draw") and event.public["count"]:
                seen_draw = True
                drawer = event.public["player"]
                assert "cards" not in event.public
                assert event.view(drawer)["cards"]
                assert all("cards" not in event.view(p) for p in players if p != drawer)
                assert "cards" not in event.view(None)
    assert seen_draw
