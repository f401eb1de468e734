"""One test per rule (E1-E30) and resolution (EU3-A1..A15) of euchre3.md, from explicit decks.

Amina deals unless said otherwise, so baraka is the dealer's left ("I order it up"), chausiku
sits opposite ("I assist") and the dummy sits at amina's right.
"""

from __future__ import annotations

from engine.core.cards import deck_24
from engine.euchre3 import GAME

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
    play_out_hand,
    refused,
    step,
    with_scores,
)

# baraka holds the five top hearts: ordering hearts up, he takes every trick.
MARCH = build_deck(hands={B: ["JH", "JD", "AH", "KH", "QH"]}, up="9H")
# baraka holds the lowest card of every suit he has; amina and chausiku hold the strong hearts.
EUCHRE = build_deck(
    hands={B: ["9H", "9S", "10S", "9C", "10C"], A: ["JH", "JD", "AH", "KH", "AS"], C: ["QH", "10H", "AC", "KC", "KS"]},
    up="9D",
)
# baraka holds four top trumps and a spade chausiku beats: exactly four tricks.
FOUR = build_deck(hands={B: ["JH", "JD", "AH", "KH", "9S"], C: ["9C", "10C", "QC", "KC", "AS"]}, up="9H")


def baraka_names_hearts(state):
    """Round one passes, baraka names hearts in round two (the up-card is a diamond)."""
    for player in (B, C, A):
        state = step(state, player, {"type": "pass"})
    return step(state, B, {"type": "name", "suit": "H"})


def with_own_hand(state, maker):
    state = step(state, maker, {"type": "with_dummy"})
    return step(state, maker, {"type": "keep", "cards": list(state.hands[PLAYERS.index(maker)])})


def euchred_baraka(state):
    state = with_own_hand(baraka_names_hearts(state), B)
    state = step(state, C, {"type": "pass"})
    return step(state, A, {"type": "pass"})


def scored(events):
    return event(events, "round_scored").public


# ----- players, deck, goal ------------------------------------------------------------------
def test_no_permanent_partnerships():
    """E1: each player scores alone; the defenders of one hand do not share the next hand's points."""
    second = build_deck(dealer=B, hands={C: ["JH", "JD", "AH", "KH", "QH"]}, up="9H")
    state = euchred_baraka(new_game(EUCHRE, second))
    state, _ = play_out_hand(state)
    assert GAME.scores(state) == {A: 2, B: 0, C: 2}
    state = step(state, C, {"type": "accept"})
    state = step(state, B, {"type": "leave"})
    state = with_own_hand(state, C)
    state = step(state, A, {"type": "pass"})
    state = step(state, B, {"type": "pass"})
    state, _ = play_out_hand(state)
    assert GAME.scores(state) == {A: 2, B: 0, C: 5}


def test_deck_is_twenty_four_cards_nine_to_ace():
    """E2: 9, 10, J, Q, K, A of each suit; a card outside it is refused, not malformed."""
    assert sorted(GAME.deck(GAME.Options(), PLAYERS)) == sorted(deck_24())
    assert len(GAME.deck(GAME.Options(), PLAYERS)) == 24
    state = baraka_makes_hearts_with_own_hand(new_game(MARCH))
    assert refused(state, B, {"type": "play", "card": "8H"}) == "not_in_deck"
    assert refused(state, B, {"type": "play", "card": "2C"}) == "not_in_deck"


def test_goal_is_ten_points_and_the_match_goes_on_below():
    """E3: at 9 points nobody has won; the next hand is dealt."""
    state = euchred_baraka(with_scores(new_game(EUCHRE), (7, 0, 0)))
    state, events = play_out_hand(state)
    assert GAME.scores(state)[A] == 9
    assert not GAME.is_finished(state) and "dealt" in kinds(events) and state.round == 2


# ----- card values --------------------------------------------------------------------------
def test_ace_high_nine_low_in_a_plain_suit():
    """E4: A K Q J 10 9 in a non-trump suit: the ace wins, the nine loses."""
    deck = build_deck(
        hands={
            B: ["QS", "9H", "9C", "10C", "QC"],
            C: ["AS", "KD", "QD", "10D", "9D"],
            A: ["9S", "KC", "AC", "AD", "JC"],
        },
        up="10H",
    )
    state = baraka_makes_hearts_with_own_hand(new_game(deck))
    state = step(state, B, {"type": "play", "card": "QS"})
    state = step(state, C, {"type": "play", "card": "AS"})
    state, events = act(state, A, {"type": "play", "card": "9S"})
    assert event(events, "trick_won").public["player"] == C


def test_right_bower_beats_left_bower_beats_trump_ace():
    """E5: hearts trump: JH (right) > JD (left) > AH."""
    deck = build_deck(
        hands={
            B: ["AH", "9S", "9C", "10C", "QC"],
            C: ["JD", "KD", "QD", "10D", "9D"],
            A: ["JH", "KC", "AC", "AD", "JC"],
        },
        up="10H",
    )
    state = baraka_makes_hearts_with_own_hand(new_game(deck))
    state = step(state, B, {"type": "play", "card": "AH"})
    state = step(state, C, {"type": "play", "card": "JD"})
    state, events = act(state, A, {"type": "play", "card": "JH"})
    assert event(events, "trick_won").public["player"] == A
    deck2 = build_deck(hands={B: ["AH", "9S", "9C", "10C", "QC"], C: ["JD", "KD", "QD", "10D", "9D"]}, up="10H")
    state = baraka_makes_hearts_with_own_hand(new_game(deck2))
    state = step(state, B, {"type": "play", "card": "AH"})
    state = step(state, C, {"type": "play", "card": "JD"})
    state, events = act(state, A, GAME.legal_actions(state, A)[0])
    assert event(events, "trick_won").public["player"] == C


# ----- setup --------------------------------------------------------------------------------
def test_first_dealer_is_chosen_at_random_from_the_seed():
    """E6: no dealer given: drawn from the seed, the same for the same seed, all seats possible."""
    dealers = {GAME.new(PLAYERS, GAME.Options(), seed).dealer for seed in range(40)}
    assert dealers == {0, 1, 2}
    assert GAME.new(PLAYERS, GAME.Options(), 7).dealer == GAME.new(PLAYERS, GAME.Options(), 7).dealer


def test_five_cards_to_each_player_and_the_dummy_four_left_with_the_top_turned():
    """E7: 5 + 5 + 5 + dummy 5, four cards in the kitty, the top one face up."""
    state = new_game(MARCH)
    assert [len(hand) for hand in state.hands] == [5, 5, 5]
    assert len(state.dummy) == 5 and len(state.kitty) == 4
    assert state.up_card == MARCH[20] == state.kitty[0] and state.up_status == "face_up"
    view = GAME.view(state, None)
    assert view["up_card"] == "9H" and view["kitty_count"] == 4 and view["dummy_count"] == 5


def test_cards_are_dealt_one_at_a_time_from_the_dealers_left():
    """E8 (packets are cosmetic) with docs/REPLAY.md's order: left, opposite, dummy, dealer, x5."""
    deck = deck_24()
    state = new_game(deck, dealer=A)
    assert state.hands[1] == tuple(deck[0:20:4])  # baraka, dealer's left
    assert state.hands[2] == tuple(deck[1:20:4])  # chausiku, opposite
    assert state.dummy == tuple(deck[2:20:4])
    assert state.hands[0] == tuple(deck[3:20:4])  # amina, the dealer, last
    assert state.kitty == tuple(deck[20:])


# ----- first round of bidding ---------------------------------------------------------------
def test_left_player_orders_up_and_no_one_else_bids():
    """E9: baraka orders it up: he is the maker and bidding is over."""
    state, events = act(new_game(MARCH), B, {"type": "accept"})
    made = event(events, "trump_made").public
    assert made["player"] == B and made["trump"] == "H" and made["label"] == "order_up"
    assert state.phase == "pickup" and GAME.to_act(state) == [A]
    assert refused(state, C, {"type": "accept"}) == "not_your_turn"


def test_opposite_player_may_assist_after_the_left_passes():
    """E10: chausiku assists after baraka passes."""
    state = step(new_game(MARCH), B, {"type": "pass"})
    assert GAME.to_act(state) == [C]
    state, events = act(state, C, {"type": "accept"})
    assert event(events, "trump_made").public["label"] == "assist"
    assert state.maker == 2 and GAME.to_act(state) == [A]


def test_dealer_accepting_takes_the_up_card():
    """E11: both others pass; amina accepts and the up-card joins her hand."""
    state = step(step(new_game(MARCH), B, {"type": "pass"}), C, {"type": "pass"})
    state, events = act(state, A, {"type": "accept"})
    assert "9H" in state.hands[0] and len(state.hands[0]) == 6
    assert state.trump == "H" and state.maker == 0 and state.phase == "maker_choice"
    assert event(events, "trump_made").public["label"] == "accept"


def test_dealer_may_pick_up_when_another_seat_accepts_and_trump_is_set_either_way():
    """E12: amina may pick 9H up (discarding one face down) or leave it; hearts are trump."""
    ordered = step(new_game(MARCH), B, {"type": "accept"})
    up, events = act(ordered, A, {"type": "pick_up", "discard": ordered.hands[0][0]})
    assert "9H" in up.hands[0] and len(up.hands[0]) == 5 and up.trump == "H"
    picked = event(events, "picked_up")
    assert "discard" not in picked.public and picked.view(A)["discard"] == ordered.hands[0][0]
    left = step(ordered, A, {"type": "leave"})
    assert "9H" not in left.hands[0] and left.trump == "H" and left.up_status == "left"


def test_three_passes_start_a_second_round():
    """E13: all three pass in round one: round two begins with the dealer's left."""
    state = new_game(MARCH)
    for player in (B, C, A):
        state = step(state, player, {"type": "pass"})
    assert state.phase == "bid2" and GAME.to_act(state) == [B]
    assert GAME.view(state, B)["bidding_round"] == 2


# ----- second round -------------------------------------------------------------------------
def test_up_card_is_turned_down_for_the_second_round():
    """E14: the up-card is turned face down (it stays in the kitty)."""
    state = step(step(new_game(MARCH), B, {"type": "pass"}), C, {"type": "pass"})
    state, events = act(state, A, {"type": "pass"})
    assert "up_card_turned_down" in kinds(events)
    assert state.up_status == "turned_down" and "9H" in state.kitty
    assert refused(state, B, {"type": "accept"}) == "not_now"


def test_first_player_to_name_a_suit_makes_trump():
    """E15: baraka passes, chausiku names spades: she is the maker."""
    state = new_game(MARCH)
    for player in (B, C, A, B):
        state = step(state, player, {"type": "pass"})
    state, events = act(state, C, {"type": "name", "suit": "S"})
    assert state.trump == "S" and state.maker == 2 and state.phase == "maker_choice"
    assert event(events, "trump_made").public["bidding_round"] == 2


def test_two_passing_rounds_redeal_by_the_next_player():
    """E16: everybody passes twice: thrown in, baraka deals the next hand from the next deck."""
    second = build_deck(dealer=B)
    state = new_game(MARCH, second)
    for player in (B, C, A, B, C):
        state = step(state, player, {"type": "pass"})
    state, events = act(state, A, {"type": "pass"})
    assert kinds(events)[-2:] == ["thrown_in", "dealt"]
    assert state.round == 2 and state.dealer == 1 and state.phase == "bid1"
    assert state.hands[2] == tuple(second[0:20:4])  # chausiku is now the dealer's left
    assert GAME.to_act(state) == [C] and GAME.scores(state) == {A: 0, B: 0, C: 0}


def test_stuck_dealer_must_name_a_suit():
    """E17: with stick_the_dealer, the dealer cannot pass in round two."""
    state = new_game(MARCH, stick_the_dealer=True)
    for player in (B, C, A, B, C):
        state = step(state, player, {"type": "pass"})
    assert refused(state, A, {"type": "pass"}) == "dealer_must_name"
    assert {"type": "pass"} not in GAME.legal_actions(state, A)
    state = step(state, A, {"type": "name", "suit": "C"})
    assert state.trump == "C" and state.maker == 0


# ----- maker and defenders ------------------------------------------------------------------
def test_maker_plays_alone_against_the_other_two():
    """E18: the maker's failure scores for both of the others."""
    state, events = play_out_hand(euchred_baraka(new_game(EUCHRE)))
    assert scored(events)["points"] == {A: 2, B: 0, C: 2}


def test_maker_merges_the_dummy_keeping_the_best_five():
    """E19: after with_dummy the maker keeps any five of his ten; the rest are discarded."""
    deck = build_deck(hands={B: ["9S", "10S", "9C", "10C", "QH"]}, dummy=["JH", "JD", "AH", "KH", "AS"], up="9H")
    state = step(step(new_game(deck), B, {"type": "accept"}), A, {"type": "leave"})
    state, events = act(state, B, {"type": "with_dummy"})
    assert event(events, "maker_with_dummy").view(B)["dummy"] == ["JH", "JD", "AH", "KH", "AS"]
    assert len(GAME.legal_actions(state, B)) == 252
    state, events = act(state, B, {"type": "keep", "cards": ["JH", "JD", "AH", "KH", "QH"]})
    assert sorted(state.hands[1]) == sorted(["JH", "JD", "AH", "KH", "QH"])
    assert state.dummy is None and len(state.discards[1]) == 5
    assert event(events, "kept").public == {"player": B, "discarded": 5}


def test_lone_maker_does_not_use_or_see_the_dummy():
    """E20: going alone puts the dummy out of play unseen."""
    state = step(step(new_game(MARCH), B, {"type": "accept"}), A, {"type": "leave"})
    state, events = act(state, B, {"type": "alone"})
    assert state.dummy is None and len(state.dead) == 5 and state.maker_alone is True
    assert all("dummy" not in e.view(B) for e in events)
    assert "dummy" not in GAME.replay_hands(state)


def test_lone_defender_partner_sits_out():
    """E21: chausiku goes alone: amina sits out, keeps her cards and never plays."""
    state = step(step(new_game(MARCH), B, {"type": "accept"}), A, {"type": "leave"})
    state = with_own_hand(state, B)
    state, events = act(state, C, {"type": "alone"})
    assert event(events, "defender_alone").public == {"player": C, "sitting_out": A}
    amina_cards = state.hands[0]
    state, events = play_out_hand(state)
    assert all(e.public["player"] != A for e in events if e.kind == "played")
    assert all(len(e.public["cards"]) == 2 for e in events if e.kind == "trick_won")
    assert GAME.replay_hands(state) != {}  # the next hand is dealt
    assert len(amina_cards) == 5


def test_maker_and_a_defender_may_both_go_alone():
    """E22: baraka alone, then chausiku alone: a two-player hand."""
    state = step(step(new_game(MARCH), B, {"type": "accept"}), A, {"type": "leave"})
    state = step(state, B, {"type": "alone"})
    state = step(state, C, {"type": "alone"})
    assert state.phase == "play" and state.maker_alone and state.lone_defender == 2 and state.sitting_out == 0


# ----- play ---------------------------------------------------------------------------------
def test_dealers_left_leads_first_and_a_lone_players_left_otherwise():
    """E23: nobody alone: baraka (dealer's left) leads; chausiku alone as maker: amina leads."""
    state = step(new_game(MARCH), B, {"type": "pass"})
    state = step(step(state, C, {"type": "accept"}), A, {"type": "leave"})
    normal = with_own_hand(state, C)
    normal = step(step(normal, A, {"type": "pass"}), B, {"type": "pass"})
    assert GAME.to_act(normal) == [B]
    lone = step(state, C, {"type": "alone"})
    lone = step(step(lone, A, {"type": "pass"}), B, {"type": "pass"})
    assert GAME.to_act(lone) == [A]


def test_players_must_follow_suit_if_they_can():
    """E24: spades led; chausiku has a spade and may not trump or throw off."""
    deck = build_deck(hands={B: ["AS", "9H", "9C", "10C", "QC"], C: ["9S", "KH", "QD", "10D", "9D"]}, up="10H")
    state = step(baraka_makes_hearts_with_own_hand(new_game(deck)), B, {"type": "play", "card": "AS"})
    assert refused(state, C, {"type": "play", "card": "KH"}) == "must_follow_suit"
    assert refused(state, C, {"type": "play", "card": "QD"}) == "must_follow_suit"
    assert GAME.legal_actions(state, C) == [{"type": "play", "card": "9S"}]
    assert refused(state, C, {"type": "play", "card": "AH"}) == "not_in_hand"


def test_highest_trump_wins_else_highest_of_the_suit_led():
    """E25: a low trump beats the ace led; an off-suit ace never wins."""
    deck = build_deck(
        hands={
            B: ["AS", "KS", "9C", "10C", "QC"],
            C: ["9H", "QS", "QD", "10D", "9D"],
            A: ["10S", "AD", "JS", "AC", "KC"],
        },
        up="10H",
    )
    state = baraka_makes_hearts_with_own_hand(new_game(deck))
    state = step(step(state, B, {"type": "play", "card": "AS"}), C, {"type": "play", "card": "QS"})
    state, events = act(state, A, {"type": "play", "card": "10S"})
    assert event(events, "trick_won").public["player"] == B
    # baraka leads again: KS; chausiku is out of spades and trumps with 9H; amina throws JS.
    state = step(state, B, {"type": "play", "card": "KS"})
    state = step(state, C, {"type": "play", "card": "9H"})
    state, events = act(state, A, {"type": "play", "card": "JS"})
    assert event(events, "trick_won").public["player"] == C


def test_trick_winner_leads_the_next_trick():
    """E26."""
    deck = build_deck(
        hands={
            B: ["9S", "KS", "9C", "10C", "QC"],
            C: ["AS", "QS", "QD", "10D", "9D"],
            A: ["10S", "AC", "KC", "JC", "AD"],
        },
        up="10H",
    )
    state = baraka_makes_hearts_with_own_hand(new_game(deck))
    state = step(step(state, B, {"type": "play", "card": "9S"}), C, {"type": "play", "card": "AS"})
    state = step(state, A, GAME.legal_actions(state, A)[0])
    assert GAME.to_act(state) == [C] and state.leader == 2 and state.tricks_won[2] == 1


# ----- scoring and winning ------------------------------------------------------------------
def test_maker_scores_one_for_three_or_four_tricks_and_three_for_a_march():
    """E27."""
    state, events = play_out_hand(baraka_makes_hearts_with_own_hand(new_game(FOUR)))
    assert scored(events)["maker_tricks"] == 4 and scored(events)["points"] == {A: 0, B: 1, C: 0}
    state, events = play_out_hand(baraka_makes_hearts_with_own_hand(new_game(MARCH)))
    assert scored(events)["maker_tricks"] == 5 and scored(events)["points"] == {A: 0, B: 3, C: 0}


def test_euchred_maker_gives_each_defender_two():
    """E28."""
    state, events = play_out_hand(euchred_baraka(new_game(EUCHRE)))
    assert scored(events)["euchred"] is True and scored(events)["maker_tricks"] == 0
    assert GAME.scores(state) == {A: 2, B: 0, C: 2}


LONE_DEFENDER_MARCH = build_deck(
    hands={B: ["9H", "10H", "9S", "9C", "10S"], A: ["JH", "JD", "AH", "KH", "QH"]}, up="9D"
)
LONE_DEFENDER_THREE = build_deck(hands={B: ["KH", "QH", "AS", "AC", "10H"], A: ["JH", "JD", "AH", "9S", "9C"]}, up="9D")


def lone_amina(deck):
    state = with_own_hand(baraka_names_hearts(new_game(deck)), B)
    state = step(state, C, {"type": "pass"})
    return step(state, A, {"type": "alone"})


def test_lone_defender_scores_two_each_for_three_or_four_and_four_each_for_five():
    """E29."""
    _, events = play_out_hand(lone_amina(LONE_DEFENDER_THREE))
    assert scored(events)["maker_tricks"] == 2 and scored(events)["points"] == {A: 2, B: 0, C: 2}
    _, events = play_out_hand(lone_amina(LONE_DEFENDER_MARCH))
    assert scored(events)["maker_tricks"] == 0 and scored(events)["points"] == {A: 4, B: 0, C: 4}


def test_first_player_to_ten_wins():
    """E30: amina reaches 10, chausiku 7: amina alone wins and the match stops."""
    state, events = play_out_hand(euchred_baraka(with_scores(new_game(EUCHRE), (8, 0, 5))))
    assert GAME.is_finished(state) and GAME.winners(state) == [A]
    assert GAME.to_act(state) == [] and kinds(events)[-1] == "match_won"
    assert state.round == 1 and refused(state, B, {"type": "pass"}) == "match_over"


# ----- resolutions --------------------------------------------------------------------------
def test_dummy_sits_at_the_dealers_right_and_rotates_with_the_deal():
    """EU3-A1: the dummy is dealt third of each rotation (after opposite, before the dealer)."""
    deck = deck_24()
    for dealer in PLAYERS:
        state = new_game(deck, dealer=dealer)
        assert state.dummy == tuple(deck[2:20:4])
        assert state.hands[PLAYERS.index(dealer)] == tuple(deck[3:20:4])


def test_accept_is_one_action_labelled_by_seat():
    """EU3-A2: order up / assist / accept are the same action; assist makes no partnership."""
    view = GAME.view(new_game(MARCH), None)
    assert view["accept_labels"] == {B: "order_up", C: "assist", A: "accept"}
    state = step(new_game(EUCHRE), B, {"type": "pass"})
    state = step(step(state, C, {"type": "accept"}), A, {"type": "leave"})
    state = step(state, C, {"type": "alone"})
    assert state.defence_queue == (0, 1)  # amina (the dealer) is a defender, not chausiku's partner


def test_dealer_may_leave_the_up_card_unless_the_table_says_must_pick_up():
    """EU3-A3."""
    ordered = step(new_game(MARCH), B, {"type": "accept"})
    assert {"type": "leave"} in GAME.legal_actions(ordered, A)
    must = step(new_game(MARCH, dealer_must_pick_up=True), B, {"type": "accept"})
    assert refused(must, A, {"type": "leave"}) == "must_pick_up"
    assert {"type": "leave"} not in GAME.legal_actions(must, A)
    assert len(GAME.legal_actions(must, A)) == 6


def test_dealer_maker_keeps_five_of_eleven_or_discards_one_going_alone():
    """EU3-A4."""
    state = step(step(new_game(MARCH), B, {"type": "pass"}), C, {"type": "pass"})
    state = step(state, A, {"type": "accept"})
    assert refused(state, A, {"type": "alone"}) == "discard_required"
    alone = step(state, A, {"type": "alone", "discard": "9H"})
    assert len(alone.hands[0]) == 5 and alone.discards[0] == ("9H",)
    merged = step(state, A, {"type": "with_dummy"})
    assert len(GAME.legal_actions(merged, A)) == 462
    merged = step(merged, A, {"type": "keep", "cards": list(merged.dummy)})
    assert len(merged.hands[0]) == 5 and len(merged.discards[0]) == 6


def test_turned_down_suit_cannot_be_named_unless_the_table_allows():
    """EU3-A5."""
    state = new_game(MARCH)
    for player in (B, C, A):
        state = step(state, player, {"type": "pass"})
    assert refused(state, B, {"type": "name", "suit": "H"}) == "turned_down_suit"
    assert {"type": "name", "suit": "H"} not in GAME.legal_actions(state, B)
    allowed = new_game(MARCH, turned_down_suit=True)
    for player in (B, C, A):
        allowed = step(allowed, player, {"type": "pass"})
    assert step(allowed, B, {"type": "name", "suit": "H"}).trump == "H"


def test_passed_out_hand_is_redealt_or_the_dealer_is_stuck():
    """EU3-A6: default redeal; with stick_the_dealer the dealer names any suit but the turned one."""
    state = new_game(MARCH)
    for player in (B, C, A, B, C, A):
        state = step(state, player, {"type": "pass"})
    assert state.round == 2 and state.phase == "bid1"
    stuck = new_game(MARCH, stick_the_dealer=True)
    for player in (B, C, A, B, C):
        stuck = step(stuck, player, {"type": "pass"})
    assert GAME.legal_actions(stuck, A) == [{"type": "name", "suit": s} for s in ("S", "D", "C")]


def test_maker_chooses_alone_before_seeing_the_dummy():
    """EU3-A7: no dummy in the maker's view while choosing; keeping his own five is allowed."""
    state = step(step(new_game(MARCH), B, {"type": "accept"}), A, {"type": "leave"})
    assert "dummy" not in GAME.view(state, B)
    assert GAME.replay_hands(state)["dummy"] == list(state.dummy)
    merged = step(state, B, {"type": "with_dummy"})
    assert GAME.view(merged, B)["dummy"] == list(state.dummy)
    assert "dummy" not in GAME.view(merged, A) and "dummy" not in GAME.view(merged, None)
    kept = step(merged, B, {"type": "keep", "cards": list(state.hands[1])})
    assert kept.hands[1] == state.hands[1] and "dummy" not in GAME.replay_hands(kept)
    assert refused(kept, B, {"type": "alone"}) == "not_your_turn"


def test_defenders_speak_in_turn_from_the_makers_left():
    """EU3-A8: chausiku then amina; once one is alone the other has no turn; table options."""
    base = step(step(new_game(MARCH), B, {"type": "accept"}), A, {"type": "leave"})
    state = with_own_hand(base, B)
    assert state.phase == "defend" and GAME.to_act(state) == [C]
    passed = step(state, C, {"type": "pass"})
    assert GAME.to_act(passed) == [A] and GAME.legal_actions(passed, A) == [{"type": "alone"}, {"type": "pass"}]
    alone = step(state, C, {"type": "alone"})
    assert alone.phase == "play" and alone.sitting_out == 0
    off = with_own_hand(
        step(step(new_game(MARCH, lone_defenders="off"), B, {"type": "accept"}), A, {"type": "leave"}), B
    )
    assert off.phase == "play"
    vs = step(step(new_game(MARCH, lone_defenders="vs_lone_maker"), B, {"type": "accept"}), A, {"type": "leave"})
    assert with_own_hand(vs, B).phase == "play"
    assert step(vs, B, {"type": "alone"}).phase == "defend"


def test_first_lead_with_lone_players():
    """EU3-A9: one lone player: next active seat to his left; both alone: the lone defender."""
    base = step(step(new_game(MARCH), B, {"type": "accept"}), A, {"type": "leave"})
    lone_maker = step(step(step(base, B, {"type": "alone"}), C, {"type": "pass"}), A, {"type": "pass"})
    assert GAME.to_act(lone_maker) == [C]
    # amina alone against baraka with the dummy: chausiku sits out, so baraka leads.
    lone_defender = step(step(with_own_hand(base, B), C, {"type": "pass"}), A, {"type": "alone"})
    assert GAME.to_act(lone_defender) == [B]
    both = step(step(step(base, B, {"type": "alone"}), C, {"type": "pass"}), A, {"type": "alone"})
    assert GAME.to_act(both) == [A]


def test_left_bower_is_only_a_trump():
    """EU3-A10: JD (hearts trump) cannot follow diamonds, must follow a heart lead, leads trumps."""
    deck = build_deck(
        hands={
            B: ["AD", "AH", "JD", "QC", "10C"],
            C: ["JC", "9D", "9S", "9C", "10S"],
            A: ["JS", "AS", "KS", "AC", "KC"],
        },
        up="9H",
    )
    state = baraka_makes_hearts_with_own_hand(new_game(deck))
    lead_diamond = step(state, B, {"type": "play", "card": "AD"})
    assert GAME.legal_actions(lead_diamond, C) == [{"type": "play", "card": "9D"}]
    lead_bower = step(state, B, {"type": "play", "card": "JD"})
    assert len(GAME.legal_actions(lead_bower, C)) == 5  # no heart: anything, 9D included
    deck2 = build_deck(hands={B: ["AD", "AH", "KD", "QC", "10C"], C: ["JD", "9D", "9S", "9C", "10S"]}, up="9H")
    state = baraka_makes_hearts_with_own_hand(new_game(deck2))
    assert (
        refused(step(state, B, {"type": "play", "card": "AD"}), C, {"type": "play", "card": "JD"}) == "must_follow_suit"
    )
    heart_led = step(state, B, {"type": "play", "card": "AH"})
    assert GAME.legal_actions(heart_led, C) == [{"type": "play", "card": "JD"}]


def test_scoring_table():
    """EU3-A11: every row, and the lone-maker bonus option."""
    _, events = play_out_hand(baraka_makes_hearts_with_own_hand(new_game(FOUR)))
    assert scored(events)["points"][B] == 1
    _, events = play_out_hand(baraka_makes_hearts_with_own_hand(new_game(MARCH)))
    assert scored(events)["points"][B] == 3
    _, events = play_out_hand(euchred_baraka(new_game(EUCHRE)))
    assert scored(events)["points"] == {A: 2, B: 0, C: 2}
    _, events = play_out_hand(lone_amina(LONE_DEFENDER_THREE))
    assert scored(events)["points"] == {A: 2, B: 0, C: 2}
    _, events = play_out_hand(lone_amina(LONE_DEFENDER_MARCH))
    assert scored(events)["points"] == {A: 4, B: 0, C: 4}
    for bonus, points in ((False, 3), (True, 5)):
        state = step(step(new_game(MARCH, lone_maker_bonus=bonus), B, {"type": "accept"}), A, {"type": "leave"})
        state = step(step(step(state, B, {"type": "alone"}), C, {"type": "pass"}), A, {"type": "pass"})
        _, events = play_out_hand(state)
        assert scored(events)["points"][B] == points
    state = step(step(new_game(FOUR, lone_maker_bonus=True), B, {"type": "accept"}), A, {"type": "leave"})
    state = step(step(step(state, B, {"type": "alone"}), C, {"type": "pass"}), A, {"type": "pass"})
    _, events = play_out_hand(state)
    assert scored(events)["points"][B] == 1


def test_two_defenders_reaching_the_target_together_share_the_win():
    """EU3-A12: shared by default; play_on continues until one player leads alone at 10+."""
    state, _ = play_out_hand(euchred_baraka(with_scores(new_game(EUCHRE), (8, 0, 8))))
    assert GAME.is_finished(state) and GAME.winners(state) == [A, C]
    tied, events = play_out_hand(euchred_baraka(with_scores(new_game(EUCHRE, simultaneous_win="play_on"), (8, 0, 8))))
    assert not GAME.is_finished(tied) and tied.round == 2 and kinds(events)[-1] == "dealt"
    sole, _ = play_out_hand(euchred_baraka(with_scores(new_game(EUCHRE, simultaneous_win="play_on"), (8, 0, 7))))
    assert GAME.is_finished(sole) and GAME.winners(sole) == [A]


def test_deal_passes_left_after_every_hand_and_every_redeal():
    """EU3-A13."""
    state, _ = play_out_hand(baraka_makes_hearts_with_own_hand(new_game(MARCH)))
    assert state.dealer == 1 and state.round == 2 and GAME.to_act(state) == [C]
    for player in (C, A, B, C, A, B):
        state = step(state, player, {"type": "pass"})
    assert state.dealer == 2 and state.round == 3 and GAME.to_act(state) == [A]


def test_nine_is_the_lowest_card_not_the_highest():
    """EU3-A14: a 9 loses to a 10 of its suit, and the 9 of trumps is the lowest trump."""
    deck = build_deck(
        hands={
            B: ["9C", "KS", "QS", "10D", "JS"],
            C: ["10C", "QD", "KD", "9S", "10S"],
            A: ["9H", "AC", "AS", "AD", "KC"],
        },
        up="10H",
    )
    state = baraka_makes_hearts_with_own_hand(new_game(deck))
    state = step(step(state, B, {"type": "play", "card": "9C"}), C, {"type": "play", "card": "10C"})
    state, events = act(state, A, {"type": "play", "card": "KC"})
    assert event(events, "trick_won").public["player"] == A
    deck2 = build_deck(hands={B: ["9H", "KS", "QS", "10D", "JS"], C: ["10H", "QD", "KD", "9S", "10S"]}, up="QH")
    state = baraka_makes_hearts_with_own_hand(new_game(deck2))
    state = step(step(state, B, {"type": "play", "card": "9H"}), C, {"type": "play", "card": "10H"})
    state, events = act(state, A, GAME.legal_actions(state, A)[0])
    assert event(events, "trick_won").public["player"] in (C, A)  # never baraka's nine


def test_thirty_two_card_deck_adds_sevens_and_eights_below_the_nine():
    """EU3-A15: kitty of 12; 8 and 7 rank below 9, also in trumps."""
    assert len(GAME.deck(GAME.Options(deck=32), PLAYERS)) == 32
    deck = build_deck(
        hands={
            B: ["8S", "7H", "QS", "10D", "JS"],
            C: ["7S", "8H", "KD", "9D", "10S"],
            A: ["AC", "KC", "QC", "AD", "JC"],
        },
        up="9H",
        size=32,
    )
    state = baraka_makes_hearts_with_own_hand(new_game(deck, deck=32))
    assert len(state.kitty) == 12
    state = step(step(state, B, {"type": "play", "card": "8S"}), C, {"type": "play", "card": "7S"})
    state, events = act(state, A, {"type": "play", "card": "AC"})
    assert event(events, "trick_won").public["player"] == B
    state = step(step(state, B, {"type": "play", "card": "7H"}), C, {"type": "play", "card": "8H"})
    state, events = act(state, A, GAME.legal_actions(state, A)[0])
    assert event(events, "trick_won").public["player"] == C
    at_24 = baraka_makes_hearts_with_own_hand(new_game(MARCH))
    assert refused(at_24, B, {"type": "play", "card": "7H"}) == "not_in_deck"
