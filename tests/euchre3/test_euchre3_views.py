"""No view and no event, as a given player (or a spectator) sees it, shows a card they may not see.

What a seat may see, modelled here independently of the engine's views: its own hand and own
face-down discards, the up-card, the cards on the table and of finished tricks, and the dummy
once that seat, as maker, chose to merge it. A spectator sees only the public cards.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.cards import is_card_code
from engine.core.protocol import CLOCK
from engine.euchre3 import GAME

from .test_euchre3_helpers import A, B, build_deck, new_game, step

PLAYERS = ("amina", "baraka", "chausiku")
VIEWERS = (*PLAYERS, None)


def cards_in(data) -> set[str]:
    """Every card code anywhere in a JSON-like value."""
    if isinstance(data, str):
        return {data} if is_card_code(data) else set()
    if isinstance(data, dict):
        return set().union(*(cards_in(value) for value in data.values())) if data else set()
    if isinstance(data, (list, tuple)):
        return set().union(*(cards_in(value) for value in data)) if data else set()
    return set()


def may_see(state, viewer) -> set[str]:
    public = {state.up_card, *state.played, *(card for _, card in state.trick)}
    if state.last_trick:
        public |= {card for _, card in state.last_trick}
    if viewer is None:
        return public
    seat = PLAYERS.index(viewer)
    own = set(state.hands[seat]) | set(state.discards[seat])
    if state.phase == "keep" and state.maker == seat:
        own |= set(state.dummy)
    return public | own


def played_card(before, after, actor_seat):
    """The card the actor put on the table with this step, if any."""
    if before.phase != "play":
        return set()
    hand = before.hands[actor_seat]
    if after.round != before.round or after.phase == "over":
        return set(hand) if len(hand) == 1 else set()
    return set(hand) - set(after.hands[actor_seat])


def check_step(before, after, actor_seat, events):
    split = next((i for i, e in enumerate(events) if e.kind == "dealt"), len(events))
    revealed = played_card(before, after, actor_seat)
    for viewer in VIEWERS:
        allowed_before = may_see(before, viewer) | revealed
        allowed_after = may_see(after, viewer)
        if after.round == before.round:
            allowed_before |= allowed_after
        for index, event in enumerate(events):
            allowed = allowed_before if index < split else allowed_after
            leaked = cards_in(event.view(viewer)) - allowed
            assert not leaked, (viewer, event.kind, leaked)
        view = GAME.view(after, viewer)
        leaked = cards_in(view) - may_see(after, viewer)
        assert not leaked, (viewer, after.phase, leaked)
        if viewer is not None:
            assert view["hand"] == list(after.hands[PLAYERS.index(viewer)])


@settings(deadline=None, max_examples=30)
@given(
    seed=st.integers(0, 10**9),
    lone=st.sampled_from(["allowed", "vs_lone_maker"]),
    must=st.booleans(),
    deck=st.sampled_from([24, 32]),
)
def test_no_view_or_event_shows_a_hidden_card(seed, lone, must, deck):
    options = GAME.Options(lone_defenders=lone, dealer_must_pick_up=must, deck=deck, target=5)
    rng = random.Random(seed)
    state = GAME.new(PLAYERS, options, seed)
    for viewer in VIEWERS:
        assert not cards_in(GAME.view(state, viewer)) - may_see(state, viewer)
    while not GAME.is_finished(state):
        (player,) = GAME.to_act(state)
        seat = PLAYERS.index(player)
        if rng.random() < 0.15:
            result = GAME.apply(state, CLOCK, {"type": "timeout"})
        else:
            result = GAME.apply(state, player, rng.choice(GAME.legal_actions(state, player)))
        check_step(state, result.state, seat, result.events)
        state = result.state


def test_the_dummy_is_seen_only_by_the_merging_maker():
    deck = build_deck(hands={B: ["JH", "JD", "AH", "KH", "QH"]}, dummy=["AS", "KS", "QS", "AC", "KC"], up="9H")
    state = step(step(new_game(deck), B, {"type": "accept"}), A, {"type": "leave"})
    result = GAME.apply(state, B, {"type": "with_dummy"})
    (merged,) = result.events
    assert "dummy" not in merged.view(A) and "dummy" not in merged.view(None)
    assert merged.view(B)["dummy"] == ["AS", "KS", "QS", "AC", "KC"]
    assert {"AS", "KS"} & cards_in(GAME.view(result.state, A)) == set()
    assert {"AS", "KS"} <= cards_in(GAME.view(result.state, B))


def test_dealt_event_shows_each_player_only_their_own_hand():
    deck = build_deck()
    state = new_game(deck)
    for _ in range(6):
        (player,) = GAME.to_act(state)
        result = GAME.apply(state, player, {"type": "pass"})
        state = result.state
    dealt = result.events[-1]
    assert dealt.kind == "dealt"
    for seat, player in enumerate(PLAYERS):
        assert cards_in(dealt.view(player)) == set(state.hands[seat]) | {state.up_card}
    assert cards_in(dealt.view(None)) == {state.up_card}
