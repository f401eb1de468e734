"""No view and no event, as a player or a spectator sees it, shows a card they may not see."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.cards import is_card_code
from engine.three_thirteen import GAME

from .test_three_thirteen_walk import new_match, option_sets, walk


def cards_of(data, found: set[str] | None = None) -> set[str]:
    """Every card code in a view or an event (player names here are never card codes)."""
    found = set() if found is None else found
    if isinstance(data, dict):
        for value in data.values():
            cards_of(value, found)
    elif isinstance(data, list):
        for value in data:
            cards_of(value, found)
    elif isinstance(data, str) and is_card_code(data):
        found.add(data)
    return found


def public_cards(state) -> set[str]:
    cards = set(state.discard)
    for melds in state.table.values():
        for meld in melds:
            cards.update(meld)
    return cards


def allowed(observer, states, revealed: set[str]) -> set[str]:
    cards = set(revealed)
    for state in states:
        cards |= public_cards(state)
        if observer is not None:
            cards.update(state.hands.get(observer, []))
    return cards


@settings(deadline=None, max_examples=6)
@given(seed=st.integers(0, 10**9), count=st.integers(2, 4), chosen=option_sets, clock_share=st.floats(0.3, 0.6))
def test_nobody_sees_a_card_they_may_not_see(seed, count, chosen, clock_share):
    state = new_match(seed, count, chosen)
    observers = [None, *state.players]
    revealed: set[str] = set()  # hands shown by the last round's scoring
    for index, move in enumerate(walk(state, random.Random(seed), clock_share)):
        actor = move.before.turn
        actor_cards = set(move.before.hands[actor]) | set(move.before.discard[-1:])
        for event in move.events:
            if event.kind == "drew":
                actor_cards |= set(cards_of(event.view(actor)))
        everyone = set(actor_cards).union(*map(set, move.before.hands.values()))
        for event in move.events:
            if event.kind == "round_scored":
                revealed = set(cards_of(event.public))
                assert revealed <= everyone | public_cards(move.before)
            if event.kind in ("discarded", "went_out"):
                assert set(cards_of(event.public)) <= actor_cards  # a card that left the actor's hand
        for observer in observers:
            for event in move.events:
                shown = event.kind in ("round_scored", "discarded", "went_out")
                extra = set(cards_of(event.public)) if shown else set()
                if observer == actor:
                    extra |= actor_cards
                seen = set(cards_of(event.view(observer)))
                assert seen <= allowed(observer, [move.before, move.after], extra), (observer, event)
            if index % 4 == 0:
                view = GAME.view(move.after, observer)
                assert set(cards_of(view)) <= allowed(observer, [move.before, move.after], revealed), observer
                if observer is not None:
                    assert Counter(view["hand"]) == Counter(move.after.hands[observer])


def test_a_players_view_shows_their_hand_and_counts_only():
    """The hand, its best arrangement, and for the others just how many cards they hold."""
    state = new_match(5, 3, {})
    view = GAME.view(state, "amina")
    assert sorted(view["hand"]) == sorted(state.hands["amina"])
    assert view["hand_counts"] == {"amina": 3, "baraka": 3, "chausiku": 3}
    assert set(cards_of(view["best_arrangement"])) <= set(state.hands["amina"])
    assert view["discard_top"] == state.discard[-1] and view["stock_count"] == len(state.stock)
    spectator = GAME.view(state, None)
    assert "hand" not in spectator and set(cards_of(spectator)) == {state.discard[-1]}
    for key in ("round", "wild_rank", "deal_size", "phase", "turn", "to_act", "scores", "dealer", "table_melds"):
        assert key in spectator
