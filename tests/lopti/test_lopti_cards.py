"""Rule tests for Lopti's card play (docs/games/rules/lopti.md section 3.1-3.2, 5.2 and the L18 rulings).

Players: amina (dealer, opens round 1), baraka, chausiku, clockwise. Each test deals an
explicit deck so the situation is exact.
"""

from __future__ import annotations

from engine.lopti import GAME

from .test_lopti_support import act, act_events, build_deck, hand_of, kinds, play, refused, started


def test_rank_order_is_ace_high_and_suits_never_matter():
    """LOP-A1 (L13.2, L13.3): 2 < ... < 10 < J < Q < K < A; a lower rank may not be played."""
    deck = build_deck(
        hand={"amina": ["QS", "4S", "5S"], "baraka": ["JH", "KH", "6H"], "chausiku": ["AD", "8D", "9D"]},
        stock=["KC", "6C", "8C"],
    )
    state = play(started(deck), "amina", "QS")
    assert refused(state, "baraka", {"type": "play", "cards": ["JH"]}).code == "illegal_card"
    state = play(state, "baraka", "KH")
    state = play(state, "chausiku", "AD")
    assert "KC" in hand_of(state, "amina")
    assert refused(state, "amina", {"type": "play", "cards": ["KC"]}).code == "illegal_card"


def test_match_needs_more_cards_than_the_previous_play():
    """LOP-A2 (L2.2, L7.0 "4 -> 4 4 -> 4"): a single on a single is refused; a pair on it is fine;
    the fourth card completes four and burns."""
    deck = build_deck(hand={"amina": ["5S", "9S", "JS"], "baraka": ["5H", "5D", "8H"], "chausiku": ["5C", "QC", "KC"]})
    state = play(started(deck), "amina", "5S")
    assert refused(state, "baraka", {"type": "play", "cards": ["5H"]}).code == "match_needs_more"
    state = play(state, "baraka", "5H", "5D")
    state, events = act_events(state, "chausiku", {"type": "play", "cards": ["5C"]})
    assert "burned" in kinds(events)
    assert GAME.to_act(state) == ["chausiku"] and state.pile == []


def test_a_single_cannot_match_a_pair_but_a_pair_completing_four_can():
    """LOP-A2: 5 5 -> 5 is illegal (1 is not more than 2 and makes only three); 5 5 -> 5 5 completes four."""
    deck = build_deck(hand={"amina": ["5S", "5H", "9S"], "baraka": ["5D", "5C", "8H"], "chausiku": ["QC", "KC", "AC"]})
    state = play(started(deck), "amina", "5S", "5H")
    assert refused(state, "baraka", {"type": "play", "cards": ["5D"]}).code == "match_needs_more"
    state, events = act_events(state, "baraka", {"type": "play", "cards": ["5D", "5C"]})
    burned = [event for event in events if event.kind == "burned"]
    assert burned and burned[0].public["cause"] == "four"


def test_fewer_cards_may_go_up():
    """LOP-A3: a single 9 may be played on three 5s."""
    deck = build_deck(hand={"amina": ["5S", "5H", "5D"], "baraka": ["9H", "4H", "6H"]})
    state = play(started(deck), "amina", "5S", "5H", "5D")
    state = play(state, "baraka", "9H")
    assert state.pile[-1] == "9H"


def test_four_of_a_kind_burns_over_several_plays_and_players():
    """LOP-A4 (L7.1, L15.2): the top four cards of one rank burn, however many plays made them."""
    deck = build_deck(hand={"amina": ["8S", "8H", "4S"], "baraka": ["8D", "8C", "6H"]}, stock=["JS", "JH"])
    state = play(started(deck), "amina", "8S", "8H")
    state, events = act_events(state, "baraka", {"type": "play", "cards": ["8D", "8C"]})
    assert [e.public["cause"] for e in events if e.kind == "burned"] == ["four"]
    assert sorted(state.burned) == ["8C", "8D", "8H", "8S"]
    view = GAME.view(state, "baraka")
    assert view["extra_play"] is True and view["turn"] == "baraka" and view["pile"] == []


def test_non_contiguous_sevens_do_not_burn():
    """LOP-A4: all four 7s in the pile but not on top together (7, 5, 7, 6, 7 7) is no burn."""
    deck = build_deck(
        hand={"amina": ["7S", "6S", "4S"], "baraka": ["5H", "7C", "7H"], "chausiku": ["7D", "QC", "KC"]},
        stock=["JS", "JH", "JD", "JC"],
    )
    state = play(started(deck), "amina", "7S")
    state = play(state, "baraka", "5H")
    state = play(state, "chausiku", "7D")
    state = play(state, "amina", "6S")
    state, events = act_events(state, "baraka", {"type": "play", "cards": ["7C", "7H"]})
    assert "burned" not in kinds(events)
    assert state.pile == ["7S", "5H", "7D", "6S", "7H", "7C"]


def test_two_goes_on_anything_and_anything_may_follow_it():
    """LOP-A5 (L9.1-L9.3): a 2 on a king; then a 4 is legal; the 2 stays on the pile."""
    deck = build_deck(hand={"amina": ["KS", "4S", "5S"], "baraka": ["2H", "6H", "8H"], "chausiku": ["4C", "9C", "QC"]})
    state = play(started(deck), "amina", "KS")
    state = play(state, "baraka", "2H")
    state = play(state, "chausiku", "4C")
    assert state.pile == ["KS", "2H", "4C"]


def test_two_on_two_must_play_more_or_complete_four():
    """L9.4: on another 2 follow "if you match, play more", or complete all four."""
    deck = build_deck(hand={"amina": ["2S", "4S", "5S"], "baraka": ["2H", "2D", "8H"], "chausiku": ["2C", "9C", "QC"]})
    state = play(started(deck), "amina", "2S")
    assert refused(state, "baraka", {"type": "play", "cards": ["2H"]}).code == "match_needs_more"
    state = play(state, "baraka", "2H", "2D")
    state, events = act_events(state, "chausiku", {"type": "play", "cards": ["2C"]})
    assert "burned" in kinds(events)


def test_ten_may_follow_a_two():
    """LOP-A5: a 10 may follow a 2."""
    deck = build_deck(hand={"amina": ["2S", "4S", "5S"], "baraka": ["10H", "6H", "8H"]})
    state = play(started(deck), "amina", "2S")
    state, events = act_events(state, "baraka", {"type": "play", "cards": ["10H"]})
    assert [e.public["cause"] for e in events if e.kind == "burned"] == ["ten"]


def test_seven_forces_seven_or_lower_for_the_next_play_only():
    """LOP-A6 (L11.2): after a 7 an 8 is refused, a 4 is fine, and after the 4 a 9 is fine again."""
    deck = build_deck(hand={"amina": ["7S", "4S", "5S"], "baraka": ["8H", "4H", "6H"], "chausiku": ["9C", "QC", "KC"]})
    state = play(started(deck), "amina", "7S")
    assert GAME.view(state, None)["low_condition"] is True
    assert refused(state, "baraka", {"type": "play", "cards": ["8H"]}).code == "must_play_low"
    state = play(state, "baraka", "4H")
    assert GAME.view(state, None)["low_condition"] is False
    state = play(state, "chausiku", "9C")
    assert state.pile[-1] == "9C"


def test_ten_cannot_follow_a_seven():
    """L11.3, LOP-A7: a 10 on a 7 is refused; with the option `ten_on_seven` it burns."""
    deck = build_deck(hand={"amina": ["7S", "4S", "5S"], "baraka": ["10H", "4H", "6H"]})
    state = play(started(deck), "amina", "7S")
    assert refused(state, "baraka", {"type": "play", "cards": ["10H"]}).code == "ten_on_seven"
    state = play(started(deck, options={"ten_on_seven": True}), "amina", "7S")
    state, events = act_events(state, "baraka", {"type": "play", "cards": ["10H"]})
    assert "burned" in kinds(events)


def test_seven_goes_on_an_ace():
    """L11.1, LOP-A6: a 7 may be played on anything (here an ace)."""
    deck = build_deck(hand={"amina": ["AS", "4S", "5S"], "baraka": ["7H", "4H", "6H"]})
    state = play(play(started(deck), "amina", "AS"), "baraka", "7H")
    assert state.pile == ["AS", "7H"]


def test_seven_on_seven_is_a_match():
    """LOP-A6: a single 7 on a single 7 is refused; with `sevens_stack_singly` it is allowed."""
    deck = build_deck(hand={"amina": ["7S", "4S", "5S"], "baraka": ["7H", "4H", "6H"]})
    state = play(started(deck), "amina", "7S")
    assert refused(state, "baraka", {"type": "play", "cards": ["7H"]}).code == "match_needs_more"
    state = play(started(deck, options={"sevens_stack_singly": True}), "amina", "7S")
    assert play(state, "baraka", "7H").pile == ["7S", "7H"]


def test_four_sixes_can_burn_on_a_seven_four_eights_cannot():
    """L18.3: the rank must be legal first: three 6s then the fourth burn on a 7; three 8s are refused."""
    deck = build_deck(hand={"amina": ["7S", "4S", "5S"], "baraka": ["6H", "6D", "6C"], "chausiku": ["6S", "QC", "KC"]})
    state = play(started(deck), "amina", "7S")
    state = play(state, "baraka", "6H", "6D", "6C")
    state, events = act_events(state, "chausiku", {"type": "play", "cards": ["6S"]})
    assert "burned" in kinds(events)
    deck = build_deck(hand={"amina": ["7S", "4S", "5S"], "baraka": ["8H", "8D", "8C"]})
    state = play(started(deck), "amina", "7S")
    assert refused(state, "baraka", {"type": "play", "cards": ["8H", "8D", "8C"]}).code == "must_play_low"


def test_ten_burns_and_the_draw_comes_before_the_extra_play():
    """LOP-A7 (L12.2-L12.4), LOP-A11: the 10 burns at once and leaves with the pile; the player
    draws, then makes one extra play on the empty table."""
    deck = build_deck(hand={"amina": ["5S", "4S", "6S"], "baraka": ["10H", "4H", "6H"]}, stock=["9S", "9H"])
    state = play(started(deck), "amina", "5S")
    state, events = act_events(state, "baraka", {"type": "play", "cards": ["10H"]})
    assert kinds(events) == ["played", "burned", "drew", "extra_play"]
    assert events[1].public["cards"] == ["5S", "10H"]
    assert GAME.to_act(state) == ["baraka"] and state.pile == []
    stock_before = len(state.stock)
    state, events = act_events(state, "baraka", {"type": "play", "cards": ["4H"]})
    assert "drew" not in kinds(events) and len(state.stock) == stock_before  # L14.9
    assert GAME.to_act(state) == ["chausiku"]


def test_ten_on_an_empty_table_burns():
    """LOP-A7: a 10 opening an empty table counts as a burn and gives an extra play."""
    deck = build_deck(hand={"amina": ["10S", "4S", "6S"]})
    state, events = act_events(started(deck), "amina", {"type": "play", "cards": ["10S"]})
    assert "burned" in kinds(events) and GAME.to_act(state) == ["amina"]


def test_several_tens_are_one_burn_and_one_extra_play():
    """LOP-A7, L14.10: two 10s in one play give one burn, so one extra play."""
    deck = build_deck(hand={"amina": ["10S", "10H", "4S"]})
    state, events = act_events(started(deck), "amina", {"type": "play", "cards": ["10S", "10H"]})
    assert kinds(events).count("burned") == 1 and kinds(events).count("extra_play") == 1
    state = play(state, "amina", "4S")
    assert GAME.to_act(state) == ["baraka"]


def test_three_passes_the_obligation_and_is_never_picked_up():
    """LOP-A8 (L10.2, L10.3): after a 3 on a pile the next player may only play 3s or take; the
    3s are discarded and the taker's turn ends; the next player opens an empty table."""
    deck = build_deck(
        hand={"amina": ["5S", "4S", "6S"], "baraka": ["3H", "4H", "6H"], "chausiku": ["3C", "2C", "10C"]},
        stock=["9D", "9H", "9C"],
    )
    state = play(started(deck), "amina", "5S")
    state, events = act_events(state, "baraka", {"type": "play", "cards": ["3H"]})
    assert events[1].kind == "obligation_passed" and events[1].public["to"] == "chausiku"
    assert GAME.view(state, None)["obligation"] == "chausiku"
    for card in ("2C", "10C"):
        assert refused(state, "chausiku", {"type": "play", "cards": [card]}).code == "obligation_pending"
    state = play(state, "chausiku", "3C")
    assert GAME.view(state, None)["obligation"] == "amina"
    state, events = act_events(state, "amina", {"type": "take"})
    assert kinds(events) == ["took"]
    assert "5S" in hand_of(state, "amina") and "3H" not in hand_of(state, "amina")
    assert "3H" in state.burned and "3C" in state.burned
    assert GAME.to_act(state) == ["baraka"] and state.pile == [] and not state.obligation


def test_three_on_an_empty_pile_creates_no_obligation():
    """L10.6, L18.1: a 3 on an empty pile is discarded; the next player starts normally."""
    deck = build_deck(hand={"amina": ["3S", "4S", "6S"], "baraka": ["9H", "4H", "6H"]})
    state, events = act_events(started(deck), "amina", {"type": "play", "cards": ["3S"]})
    assert "obligation_passed" not in kinds(events)
    assert GAME.view(state, None)["obligation"] is None
    state = play(state, "baraka", "4H")
    assert state.pile == ["4H"]


def test_several_threes_pass_one_obligation():
    """L18.4: one play of several 3s passes one obligation, to the next player only."""
    deck = build_deck(hand={"amina": ["5S", "4S", "6S"], "baraka": ["3H", "3D", "6H"], "chausiku": ["8C", "9C", "QC"]})
    state = play(started(deck), "amina", "5S")
    state = play(state, "baraka", "3H", "3D")
    state = act(state, "chausiku", {"type": "take"})
    assert GAME.to_act(state) == ["amina"] and GAME.view(state, None)["obligation"] is None
    assert state.pile == []


def test_chain_of_four_threes_burns_the_pile():
    """LOP-A9 (L10.4, L10.5): the chain is shown beside the pile; the fourth 3 burns and the
    player who completed it plays again."""
    deck = build_deck(hand={"amina": ["5S", "4S", "6S"], "baraka": ["3H", "3D", "6H"], "chausiku": ["3C", "3S", "QC"]})
    state = play(started(deck), "amina", "5S")
    state = play(state, "baraka", "3H", "3D")
    assert GAME.view(state, None)["chain"] == ["3H", "3D"]
    state, events = act_events(state, "chausiku", {"type": "play", "cards": ["3S", "3C"]})
    assert [e.public["cause"] for e in events if e.kind == "burned"] == ["threes"]
    view = GAME.view(state, None)
    assert view["chain"] == [] and view["pile"] == [] and view["obligation"] is None
    assert GAME.to_act(state) == ["chausiku"] and view["extra_play"]


def test_chain_of_threes_on_an_empty_table_burns_too():
    """LOP-A9: a chain started on an empty table also burns at four and gives an extra play."""
    deck = build_deck(hand={"amina": ["3S", "3C", "6S"], "baraka": ["3H", "4H", "6H"], "chausiku": ["3D", "9C", "QC"]})
    state = play(started(deck), "amina", "3S")
    state = play(state, "baraka", "3H")
    state = play(state, "chausiku", "3D")
    state, events = act_events(state, "amina", {"type": "play", "cards": ["3C"]})
    assert "burned" in kinds(events) and GAME.to_act(state) == ["amina"]


def test_chain_display_resets_when_a_non_three_is_played():
    """L10.4: the chain's 3s stay visible until a non-3 card is played."""
    deck = build_deck(hand={"amina": ["3S", "4S", "6S"], "baraka": ["4H", "5H", "6H"]})
    state = play(started(deck), "amina", "3S")
    assert GAME.view(state, None)["chain"] == ["3S"]
    state = play(state, "baraka", "4H")
    assert GAME.view(state, None)["chain"] == [] and "3S" in state.burned


def test_single_card_completing_four_burns():
    """L18.2: a single card on three matching cards completes four: a legal match that burns."""
    deck = build_deck(hand={"amina": ["6S", "6H", "6D"], "baraka": ["6C", "4H", "5H"]})
    state = play(started(deck), "amina", "6S", "6H", "6D")
    state, events = act_events(state, "baraka", {"type": "play", "cards": ["6C"]})
    assert "burned" in kinds(events)


def test_burn_cancels_the_low_condition():
    """LOP-A21 (L15.1): four 7s burn; the extra play is free of the 7's low condition."""
    deck = build_deck(hand={"amina": ["7S", "4S", "6S"], "baraka": ["7H", "7D", "6H"], "chausiku": ["7C", "AC", "QC"]})
    state = play(started(deck), "amina", "7S")
    state = play(state, "baraka", "7H", "7D")
    state, events = act_events(state, "chausiku", {"type": "play", "cards": ["7C"]})
    assert [e.public["cause"] for e in events if e.kind == "burned"] == ["sevens"]
    state = play(state, "chausiku", "AC")
    assert state.pile == ["AC"] and len(state.burned) == 4


def test_opening_an_empty_table_with_any_one_rank():
    """LOP-A20 (L14.2, L14.3): an empty table takes one rank in any number; it cannot be taken."""
    deck = build_deck(hand={"amina": ["9S", "9H", "KS"]})
    state = started(deck)
    assert refused(state, "amina", {"type": "take"}).code == "empty_pile"
    assert refused(state, "amina", {"type": "play", "cards": ["9S", "KS"]}).code == "mixed_ranks"
    state = play(state, "amina", "9S", "9H")
    assert state.pile == ["9S", "9H"] and state.last_play == 2


def test_legality_summary_offers_exactly_the_legal_plays():
    """Section 5.2: on a single 9, the legal actions are higher ranks, 2/3/7/10, a pair of 9s, and take."""
    deck = build_deck(
        hand={"amina": ["9S", "4S", "KS"], "baraka": ["9H", "9D", "8H"]}, stock=["2H", "3H", "7H", "10D", "QD", "JD"]
    )
    state = play(started(deck), "amina", "9S")
    assert GAME.legal_actions(state, "baraka") == [
        {"type": "play", "cards": ["9H", "9D"]},
        {"type": "take"},
    ]
