"""The fast paths give what the plain rules give: `advance` (in place) against `apply` (on a copy)
over whole random matches, refusals through the fast path, the unrolled trick winner, the
dealing order, the play list of `legal_actions` (the following-suit table against the plain
effective-suit rule), and the cheap `Event`/`Applied` builders."""

from __future__ import annotations

import copy
import random
from itertools import permutations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.protocol import CLOCK, Applied, Refused
from engine.core.rng import shuffled
from engine.euchre3 import GAME
from engine.euchre3.dealing import deck_order, split_deal
from engine.euchre3.ranking import DECKS, EFFECTIVE_SUIT, TRICK_POWER, TRICK_VALUE

from .test_euchre3_properties import options_sets

PLAYERS = ("amina", "baraka", "chausiku")


def odd_variants(state, player, rng):
    """Actions that must not take the fast path's happy ending: other players, cards not held,
    cards that do not follow suit, lower-case codes, extra fields, non-dict actions."""
    seat = state.turn
    others = [p for p in PLAYERS if p != player]
    held = list(state.hands[seat]) if seat is not None else []
    not_held = [card for card in DECKS[state.options.deck] if card not in held]
    variants = [
        (rng.choice(others), {"type": "pass"}),
        (rng.choice(others), {"type": "play", "card": held[0] if held else "AS"}),
        (player, {"type": "play", "card": rng.choice(not_held)}),
        (player, {"type": "play", "card": "2H"}),
        (player, {"type": "play", "card": ["AS"]}),
        (player, {"type": "play"}),
        (player, {"type": ["play"]}),
        (player, [("type", "play")]),
        (player, {"type": "accept", "extra": 1}),
        (player, {"type": "alone", "discard": "as"}),
        (player, {"type": "pick_up", "discard": rng.choice(held).lower() if held else "as"}),
    ]
    for card in held:
        variants.append((player, {"type": "play", "card": card}))
        variants.append((player, {"type": "play", "card": card.lower()}))
        variants.append((player, {"type": "play", "card": card, "note": "x"}))
    return variants


def same_result(slow, quick):
    assert type(slow) is type(quick)
    if isinstance(slow, Refused):
        assert (slow.code, slow.message) == (quick.code, quick.message)
    else:
        assert GAME.dump(slow.state) == GAME.dump(quick.state)
        assert slow.events == quick.events
        assert [e.to_json() for e in slow.events] == [e.to_json() for e in quick.events]


@settings(deadline=None, max_examples=8)
@given(options=options_sets, seed=st.integers(0, 10**9))
def test_advance_alone_plays_the_same_match_as_apply(options, seed):
    """One state object driven only by `advance` (as the benchmark and the table service do)
    stays equal to the chain of `apply` results; odd and refused actions behave the same on both
    and a refused `advance` leaves its state exactly as it was."""
    parsed = GAME.Options(**options)
    rng = random.Random(seed)
    state = GAME.new(PLAYERS, parsed, seed)
    fast = GAME.new(PLAYERS, parsed, seed)
    steps = 0
    while not GAME.is_finished(state):
        (player,) = GAME.to_act(state)
        assert GAME.legal_actions(fast, player) == GAME.legal_actions(state, player)
        if steps % 3 == 0:
            for who, action in odd_variants(state, player, rng):
                before = GAME.dump(fast)
                slow = GAME.apply(state, who, copy.deepcopy(action))
                if isinstance(slow, Refused):
                    quick = GAME.advance(fast, who, copy.deepcopy(action))
                    same_result(slow, quick)
                    assert GAME.dump(fast) == before
                else:  # accepted odd forms (lower case, extra fields) are checked on a copy
                    same_result(slow, GAME.advance(GAME.load(GAME.dump(fast)), who, copy.deepcopy(action)))
        if rng.random() < 0.05:
            player, action = CLOCK, {"type": "timeout"}
        else:
            action = rng.choice(GAME.legal_actions(state, player))
        slow = GAME.apply(state, player, action)
        quick = GAME.advance(fast, player, action)
        assert isinstance(quick, Applied) and quick.state is fast
        same_result(slow, quick)
        state = slow.state
        steps += 1
    assert GAME.advance(fast, PLAYERS[0], {"type": "pass"}).code == "match_over"


def reference_trick_winner(cards, trump: str) -> int:
    """E25 straight from the ranks: the highest trump, else the highest card of the suit led."""
    effective, power = EFFECTIVE_SUIT[trump], TRICK_POWER[trump]
    led_suit = effective[cards[0]]
    best_index, best = 0, -1
    for index, card in enumerate(cards):
        value = power[card] if effective[card] in (trump, led_suit) else 0
        if value > best:
            best_index, best = index, value
    return best_index


def test_the_trick_value_tables_pick_the_winner_the_ranks_give():
    """play_card's winner (the highest TRICK_VALUE of the trick) agrees with the plain rank
    comparison on every two- and three-card trick of the 24-card deck and a sample of the 32's."""
    rng = random.Random(5)
    for trump in "SHDC":
        effective = EFFECTIVE_SUIT[trump]
        for _deck, tricks in (
            (DECKS[24], permutations(DECKS[24], 3)),
            (DECKS[32], (rng.sample(DECKS[32], 3) for _ in range(3000))),
        ):
            for cards in tricks:
                for size in (2, 3):
                    played = cards[:size]
                    values = TRICK_VALUE[trump][effective[played[0]]]
                    best = max(range(size), key=lambda index: values[played[index]])
                    assert best == reference_trick_winner(played, trump), (trump, played)


def test_deals_follow_the_seed_unless_a_deck_is_given():
    state = GAME.new(PLAYERS, GAME.Options(deck=32), "seed-9")
    assert list(deck_order(state, 4)) == shuffled(DECKS[32], "seed-9", "deal", 4)


def test_dealing_order_is_one_card_at_a_time_from_the_dealers_left():
    for deck in DECKS.values():
        for number in range(1, 6):
            order = shuffled(deck, 11, "deal", number)
            for dealer in range(3):
                seats = [(dealer + 1) % 3, (dealer + 2) % 3, "dummy", dealer]
                expected = {seat: [] for seat in seats}
                for index in range(20):
                    expected[seats[index % 4]].append(order[index])
                hands, dummy, kitty = split_deal(order, dealer)
                assert hands == tuple(tuple(expected[seat]) for seat in range(3))
                assert dummy == tuple(expected["dummy"])
                assert kitty == tuple(order[20:])


def reference_legal_plays(hand, led, trump: str):
    """E24/EU3-A10 straight from the suits: follow the effective suit led if possible."""
    if led is None:
        return hand
    effective = EFFECTIVE_SUIT[trump]
    following = tuple(card for card in hand if effective[card] == effective[led])
    return following or hand


@settings(deadline=None, max_examples=5)
@given(seed=st.integers(0, 10**9))
def test_play_actions_are_the_legal_plays(seed):
    rng = random.Random(seed)
    state = GAME.new(PLAYERS, GAME.Options(), seed)
    while not GAME.is_finished(state):
        (player,) = GAME.to_act(state)
        actions = GAME.legal_actions(state, player)
        if state.phase == "play":
            led = state.trick[0][1] if state.trick else None
            plays = reference_legal_plays(state.hands[state.turn], led, state.trump)
            assert actions == [{"type": "play", "card": card} for card in plays]
            assert len({id(action) for action in actions}) == len(actions)
        state = GAME.advance(state, player, rng.choice(actions)).state
