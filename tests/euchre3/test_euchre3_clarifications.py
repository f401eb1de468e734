"""Section 7 (actions, the timeout defaults) and section 8 (clarifications) of euchre3.md, and the
refusal / malformed boundary of docs/REPLAY.md."""

from __future__ import annotations

import pytest

from engine.core.protocol import CLOCK, MalformedAction
from engine.euchre3 import GAME
from engine.euchre3.ranking import strongest_first, weakest

from .test_euchre3_helpers import (
    PLAYERS,
    A,
    B,
    C,
    act,
    baraka_makes_hearts_with_own_hand,
    build_deck,
    event,
    kinds,
    new_game,
    refused,
    step,
)

MARCH = build_deck(hands={B: ["JH", "JD", "AH", "KH", "QH"]}, up="9H")
TIMEOUT = {"type": "timeout"}


def tick(state):
    return act(state, CLOCK, TIMEOUT)


# ----- section 7: timeouts ------------------------------------------------------------------
def test_timeout_in_bidding_passes():
    """§7: a bidder who times out passes, in both rounds."""
    state, events = tick(new_game(MARCH))
    assert kinds(events) == ["timed_out", "passed"] and GAME.to_act(state) == [C]
    for player in (C, A):
        state = step(state, player, {"type": "pass"})
    state, events = tick(state)
    assert event(events, "passed").public["bidding_round"] == 2 and GAME.to_act(state) == [C]


def test_timeout_of_a_stuck_dealer_names_the_first_allowed_suit():
    """§7/§8: order S, H, D, C skipping the turned-down suit (here spades)."""
    deck = build_deck(up="9S")
    state = new_game(deck, stick_the_dealer=True)
    for player in (B, C, A, B, C):
        state = step(state, player, {"type": "pass"})
    state, _ = tick(state)
    assert state.trump == "H" and state.maker == 0


def test_timeout_of_the_dealer_leaves_the_up_card_or_discards_the_weakest():
    """§7/§8: dealer leaves; if the dealer must pick up, the weakest of the six is discarded."""
    deck = build_deck(hands={A: ["AS", "KS", "9C", "QD", "AH"]}, up="10H")
    state, _ = tick(step(new_game(deck), B, {"type": "accept"}))
    assert state.up_status == "left" and "10H" not in state.hands[0]
    state, _ = tick(step(new_game(deck, dealer_must_pick_up=True), B, {"type": "accept"}))
    assert state.discards[0] == ("9C",) and "10H" in state.hands[0]


def test_timed_out_maker_plays_with_the_dummy_keeping_the_five_strongest():
    """§7/§8: one timeout covers with_dummy and keep."""
    deck = build_deck(hands={B: ["9S", "10S", "9C", "10C", "QH"]}, dummy=["JH", "JD", "AS", "KD", "9D"], up="9H")
    state = step(step(new_game(deck), B, {"type": "accept"}), A, {"type": "leave"})
    state, events = tick(state)
    assert kinds(events)[:3] == ["timed_out", "maker_with_dummy", "kept"]
    assert set(state.hands[1]) == {"JH", "JD", "QH", "AS", "KD"}
    merged = step(step(step(new_game(deck), B, {"type": "accept"}), A, {"type": "leave"}), B, {"type": "with_dummy"})
    merged, _ = tick(merged)
    assert set(merged.hands[1]) == {"JH", "JD", "QH", "AS", "KD"}


def test_timed_out_defender_passes_and_player_plays_the_weakest_legal_card():
    """§7/§8: defender: pass. Play: the weakest legal card (ties C, D, H, S)."""
    deck = build_deck(hands={B: ["AS", "KH", "9C", "10C", "QC"], C: ["9S", "9D", "AD", "JC", "KS"]}, up="9H")
    state = step(step(new_game(deck), B, {"type": "accept"}), A, {"type": "leave"})
    state = step(state, B, {"type": "with_dummy"})
    state = step(state, B, {"type": "keep", "cards": list(state.hands[1])})
    state, events = tick(state)
    assert event(events, "defender_passed").public["player"] == C
    state = step(state, A, {"type": "pass"})
    state, events = tick(state)  # baraka leads: weakest of AS KH 9C 10C QC is 9C
    assert event(events, "played").public["card"] == "9C"
    state, events = tick(state)  # chausiku has JC: the only club
    assert event(events, "played").public["card"] == "JC"


def test_strength_order_for_timeouts():
    """§8: trumps R, L, A, K, Q, 10, 9, then plain by rank, ties S, H, D, C; weakest is last."""
    cards = ["9S", "9C", "AH", "JD", "JH", "JS", "AS", "AC", "9H", "JC"]
    assert strongest_first(cards, "H") == ["JH", "JD", "AH", "9H", "AS", "AC", "JS", "JC", "9S", "9C"]
    assert weakest(["9S", "9D", "9C"], "H") == "9C"
    assert weakest(["9S", "9H"], "H") == "9S"


# ----- section 8 ----------------------------------------------------------------------------
def test_dealer_who_picks_up_may_discard_the_up_card():
    """§8."""
    state = step(new_game(MARCH), B, {"type": "accept"})
    assert {"type": "pick_up", "discard": "9H"} in GAME.legal_actions(state, A)
    state = step(state, A, {"type": "pick_up", "discard": "9H"})
    assert state.discards[0] == ("9H",) and "9H" not in state.hands[0] and state.up_status == "picked_up"
    assert (
        refused(step(new_game(MARCH), B, {"type": "accept"}), A, {"type": "pick_up", "discard": "JH"}) == "not_in_hand"
    )


def test_hands_show_the_dummy_until_the_maker_chooses():
    """§8: `dummy` in the replay hands from the deal until keep or alone; sitting-out cards stay."""
    state = step(step(new_game(MARCH), B, {"type": "accept"}), A, {"type": "leave"})
    assert "dummy" in GAME.replay_hands(state)
    assert "dummy" in GAME.replay_hands(step(state, B, {"type": "with_dummy"}))
    alone = step(state, B, {"type": "alone"})
    assert set(GAME.replay_hands(alone)) == set(PLAYERS)
    out = step(alone, C, {"type": "alone"})
    assert len(GAME.replay_hands(out)[A]) == 5


def test_alone_with_a_discard_is_refused_with_five_cards():
    """§8."""
    state = step(step(new_game(MARCH), B, {"type": "accept"}), A, {"type": "leave"})
    assert refused(state, B, {"type": "alone", "discard": "JH"}) == "no_discard"


def test_play_on_lets_any_player_become_the_sole_leader():
    """§8: ties at the top keep the match going."""
    from engine.euchre3.scoring import match_winners

    options = GAME.Options(simultaneous_win="play_on")
    assert match_winners((10, 3, 10), options) == ()
    assert match_winners((10, 12, 10), options) == (1,)
    assert match_winners((9, 3, 9), options) == ()
    assert match_winners((10, 3, 10), GAME.Options()) == (0, 2)


# ----- refusals and malformed actions -------------------------------------------------------
def test_refusals_name_what_is_wrong():
    state = new_game(MARCH)
    assert refused(state, C, {"type": "pass"}) == "not_your_turn"
    assert refused(state, B, {"type": "play", "card": "JH"}) == "not_now"
    assert refused(state, B, {"type": "name", "suit": "H"}) == "not_now"
    merged = step(step(step(state, B, {"type": "accept"}), A, {"type": "leave"}), B, {"type": "with_dummy"})
    hand = list(merged.hands[1])
    assert refused(merged, B, {"type": "keep", "cards": hand[:4]}) == "wrong_keep_size"
    assert refused(merged, B, {"type": "keep", "cards": hand[:4] + hand[:1]}) == "duplicate_card"
    foreign = next(card for card in merged.hands[0])
    assert refused(merged, B, {"type": "keep", "cards": hand[:4] + [foreign]}) == "not_in_hand"
    assert refused(merged, B, {"type": "keep", "cards": hand[:4] + ["7C"]}) == "not_in_deck"
    playing = baraka_makes_hearts_with_own_hand(new_game(MARCH))
    assert refused(playing, B, {"type": "play", "card": playing.hands[0][0]}) == "not_in_hand"


def test_malformed_actions_are_not_refusals():
    """docs/REPLAY.md: unknown type, bad card code or suit, missing field: MalformedAction."""
    for action in (
        {"type": "bid", "n": 3},
        {"type": "play", "card": "1H"},
        {"type": "play"},
        {"type": "name", "suit": "Z"},
        {"type": "keep", "cards": "JH"},
        {"type": "pass", "x": 1},
    ):
        with pytest.raises(MalformedAction):
            GAME.check_action(B, action, PLAYERS)
    assert GAME.check_action(B, {"type": "play", "card": "jh"}, PLAYERS) == {"type": "play", "card": "JH"}
    assert GAME.check_action(B, {"type": "name", "suit": "h"}, PLAYERS) == {"type": "name", "suit": "H"}
    state = baraka_makes_hearts_with_own_hand(new_game(MARCH))
    assert act(state, B, {"type": "play", "card": "jh"})[0].hands[1] == ("JD", "AH", "KH", "QH")
