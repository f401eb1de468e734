"""Hidden information: no view and no event, as a player or a spectator sees it, shows a card
that viewer may not see (other hands, any face-down card, the stock)."""

from __future__ import annotations

import random

from engine.core.protocol import Applied
from engine.lopti import GAME
from engine.lopti.rules import DECK

from .test_lopti_support import FIVE, random_action, random_options

CARDS = set(DECK)


def cards_in(value) -> set[str]:
    """Every card code anywhere in a JSON-ready value."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if item in CARDS:
                found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return found


def public_cards(state) -> set[str]:
    seen = set(state.pile) | set(state.chain)
    for row in state.face_up:
        seen.update(row)
    return seen


def face_down_cards(state) -> set[str]:
    return {card for row in state.face_down for card in row if card is not None}


def visible(state, player) -> set[str]:
    seen = public_cards(state)
    if player is not None:
        seen |= set(state.hands[state.players.index(player)])
    return seen


def test_views_and_events_show_only_what_the_viewer_may_see():
    """L13.4 and the protocol: own hand, face-up cards, the pile and the 3-chain only; events
    add cards that became public in that step (played, burned, flipped)."""
    checked = 0
    for seed in range(4):
        rng = random.Random(seed)
        count = 2 + seed % 4
        state = GAME.new(FIVE[:count], GAME.Options(**random_options(rng)), seed)
        viewers = [None, *state.players]
        while state.round <= 2:
            player, action = random_action(state, rng)
            result = GAME.apply(state, player, action)
            assert isinstance(result, Applied)
            after = result.state
            revealed = (face_down_cards(state) - face_down_cards(after)) | (set(after.burned) - set(state.burned))
            if after.round != state.round and state.phase == "play":
                # the round's last play (the winner's last cards) ends it; the new deal replaces the table
                seat = state.turn
                revealed = set(state.hands[seat]) | {c for c in state.face_down[seat] if c is not None}
            elif after.round != state.round:
                revealed = set()
            for viewer in viewers:
                allowed_now = visible(after, viewer)
                view = GAME.view(after, viewer)
                assert cards_in(view) <= allowed_now, (viewer, cards_in(view) - allowed_now)
                assert not cards_in(view) & (face_down_cards(after) | set(after.stock))
                allowed = allowed_now | revealed
                allowed |= visible(state, viewer)
                for event in result.events:
                    shown = cards_in(event.view(viewer))
                    if event.kind == "round_won":
                        continue
                    assert shown <= allowed, (viewer, event.kind, shown - allowed)
                    checked += 1
            state = after
    assert checked > 1000


def test_a_drawn_card_is_private_to_the_drawer():
    """The card drawn from the stock is in the drawer's private part only."""
    rng = random.Random(5)
    state = GAME.new(FIVE[:3], GAME.Options(), 5)
    draws = 0
    while state.round == 1:
        player, action = random_action(state, rng)
        result = GAME.apply(state, player, action)
        for event in result.events:
            if event.kind == "drew":
                draws += 1
                drawer = event.public["player"]
                assert "cards" not in event.public and event.view(drawer)["cards"]
                assert all("cards" not in event.view(other) for other in state.players if other != drawer)
                assert "cards" not in event.view(None)
        state = result.state
    assert draws > 0
