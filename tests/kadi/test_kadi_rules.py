"""Dealing, matching, drawing, power cards, stacking and multi-card plays (K1-K5, KAD-A1..A15)."""

from __future__ import annotations

from collections import Counter

from engine.core.rng import rng_for
from engine.kadi import GAME, KadiOptions
from engine.kadi.cards import DECK
from tests.kadi.test_kadi_helpers import (
    DRAW,
    PASS,
    PLAYERS,
    TWO,
    act,
    all_cards,
    build_deck,
    event,
    kinds,
    new_game,
    play,
    refused,
)

# Hands with no heart, no nine, no power card: these players can never answer on 9H.
BARAKA_PLAIN = ["3S", "4S", "6D", "10C", "KS"]
CHAUSIKU_PLAIN = ["3D", "4D", "6C", "10D", "KD"]


def plays_of(state, player):
    return [a["cards"] for a in GAME.legal_actions(state, player) if a["type"] == "play"]


# ----- K1: set-up and dealing -------------------------------------------------------------------


def test_deck_is_fifty_two_cards_and_two_jokers():
    """K1.1, KAD-A1: all the cards, jokers included: 52 + 2 identical jokers."""
    deck = GAME.deck(KadiOptions(), PLAYERS)
    assert len(deck) == 54
    assert Counter(deck)["X"] == 2
    assert len(set(deck)) == 53


def test_each_player_is_dealt_seven_cards_by_default():
    """K1.2, KAD-A2: a hand of 7 by default; the rest is the stock and one card starts the pile."""
    state = GAME.new(PLAYERS, KadiOptions(), seed=3)
    assert [len(state.hands[p]) for p in PLAYERS] == [7, 7, 7]
    assert len(state.discard) == 1
    assert len(state.stock) == 54 - 21 - 1
    assert all_cards(state) == Counter(DECK)


def test_deal_follows_the_explicit_deck_from_the_dealers_left():
    """K1.3, docs/REPLAY.md dealing order: one card at a time from the dealer's left; next card starts the pile."""
    deck = build_deck(PLAYERS, "baraka", hands={"chausiku": ["AH", "AS"], "amina": ["KH"]}, start="9D", stock=["QC"])
    state = GAME.new(PLAYERS, KadiOptions(hand_size=5), 0, "baraka", [deck])
    assert deck[0] == "AH" and deck[1] == "KH"  # chausiku sits left of baraka
    assert state.hands["chausiku"][:2] == ["AH", "AS"]
    assert state.discard == ["9D"]
    assert state.stock[-1] == "QC"


def test_hand_size_option_and_player_limits():
    """KAD-A2, section 8: 2-6 players, 2-7 with hands of 6 or less; hand size 5-8."""
    seven = [f"p{i}" for i in range(7)]
    assert GAME.player_count_problem(seven, KadiOptions()) is not None
    assert GAME.player_count_problem(seven, KadiOptions(hand_size=6)) is None
    assert GAME.player_count_problem(["solo"], KadiOptions()) is not None
    state = GAME.new(seven, KadiOptions(hand_size=6), seed=1)
    assert all(len(state.hands[p]) == 6 for p in seven)


def test_play_begins_left_of_the_dealer_and_goes_clockwise():
    """K1.4, KAD-A3: the player after the dealer leads; play goes round clockwise."""
    state = new_game(hands={"amina": ["9S"]}, start="9D", dealer="chausiku")
    assert GAME.to_act(state) == ["amina"]
    state, _ = act(state, "amina", play("9S"))
    assert GAME.to_act(state) == ["baraka"]


def test_first_dealer_is_drawn_from_the_seed():
    """KAD-A3: a missing dealer is picked with rng_for(seed, 'dealer')."""
    state = GAME.new(PLAYERS, KadiOptions(), seed=11)
    assert state.dealer == rng_for(11, "dealer").choice(PLAYERS)


def test_power_start_card_goes_to_the_bottom_of_the_stock():
    """KAD-A4: a power card turned up is put under the stock and the next card is turned."""
    state = new_game(start="7H", stock=["X", "9D"], hands={})
    assert state.discard == ["9D"]
    assert state.stock[:2] == ["X", "7H"]  # stock[0] is the bottom: 7H went under first, then X under it
    assert all_cards(state) == Counter(DECK)


# ----- K2: following suit or number ---------------------------------------------------------------


def test_card_matching_suit_or_number_is_legal():
    """K2.1, K2.2, K2.3, KAD-A5: heart on heart, nine on nine; anything else is refused."""
    state = new_game(hands={"amina": ["4H", "9S", "3C", "QD", "KC"]}, start="9H")
    assert sorted(map(tuple, plays_of(state, "amina"))) == [("4H",), ("9S",)]
    assert refused(state, "amina", play("3C")) == "illegal_card"
    act(state, "amina", play("4H"))
    act(state, "amina", play("9S"))


def test_picture_cards_match_by_rank():
    """KAD-A5: Q on Q, K on K."""
    state = new_game(hands={"amina": ["QD", "3C", "4C", "5C", "6C"]}, start="QS")
    assert plays_of(state, "amina") == [["QD"]]


def test_nothing_to_play_draw_one_and_the_turn_ends_if_it_does_not_fit():
    """K2.4, K2.5: draw exactly one card; if it does not fit, the turn ends."""
    state = new_game(hands={"amina": ["3C", "4C", "5C", "6C", "10S"]}, start="9H", stock=["KD"])
    assert GAME.legal_actions(state, "amina") == [DRAW]
    state, events = act(state, "amina", DRAW)
    assert event(events, "drew").view("amina")["cards"] == ["KD"]
    assert "cards" not in event(events, "drew").view("baraka")
    assert len(state.hands["amina"]) == 6
    assert GAME.to_act(state) == ["baraka"]


def test_a_drawn_card_that_fits_may_be_played_at_once():
    """K2.5, KAD-A6: the drawn card, if it fits, may be played straight away."""
    state = new_game(hands={"amina": ["3C", "4C", "5C", "6C", "10S"]}, start="9H", stock=["KH"])
    state, _ = act(state, "amina", DRAW)
    assert GAME.to_act(state) == ["amina"]
    assert GAME.legal_actions(state, "amina") == [play("KH"), PASS]
    state, _ = act(state, "amina", play("KH"))
    assert state.discard[-1] == "KH" and GAME.to_act(state) == ["baraka"]


def test_a_drawn_card_that_fits_may_be_kept_with_pass():
    """K2.5 ("may"), section 7 pass: keep the drawn card and end the turn."""
    state = new_game(hands={"amina": ["3C", "4C", "5C", "6C", "10S"]}, start="9H", stock=["KH"])
    state, _ = act(state, "amina", DRAW)
    state, events = act(state, "amina", PASS)
    assert kinds(events) == ["passed"]
    assert "KH" in state.hands["amina"] and GAME.to_act(state) == ["baraka"]
    assert refused(state, "baraka", PASS) == "nothing_to_pass"


def test_no_drawing_while_holding_a_legal_play():
    """KAD-A6: drawing is only for when nothing fits; table option voluntary_draw allows it."""
    hands = {"amina": ["4H", "3C", "4C", "5C", "6C"]}
    state = new_game(hands=hands, start="9H")
    assert refused(state, "amina", DRAW) == "must_play"
    assert DRAW not in GAME.legal_actions(state, "amina")
    state = new_game(hands=hands, start="9H", voluntary_draw=True)
    assert DRAW in GAME.legal_actions(state, "amina")
    act(state, "amina", DRAW)


def test_after_drawing_only_a_play_with_the_drawn_card_is_allowed():
    """Section 8, KAD-A6: after a draw the play must contain the drawn card, its first card legal."""
    state = new_game(hands={"amina": ["4S", "3C", "5C", "6C", "10S"]}, start="9H", stock=["4H"])
    state, _ = act(state, "amina", DRAW)
    assert sorted(map(tuple, plays_of(state, "amina"))) == [("4H",), ("4H", "4S")]
    assert refused(state, "amina", play("4S", "4H")) == "illegal_card"
    assert refused(state, "amina", play("10S")) == "must_play_drawn"
    assert refused(state, "amina", DRAW) == "already_drew"
    state, _ = act(state, "amina", play("4H", "4S"))
    assert state.discard[-2:] == ["4H", "4S"]


def test_an_empty_stock_is_rebuilt_from_the_discard_pile_except_its_top():
    """KAD-A7: the played cards except the top one are shuffled (from the seed) into a new stock."""
    state = new_game(hands={"amina": ["3C", "4C", "5C", "6C", "10S"]}, start="9H")
    data = GAME.dump(state)
    data["discard"] = list(reversed(data["stock"])) + data["discard"]
    data["stock"] = []
    state = GAME.load(data)
    state, events = act(state, "amina", DRAW)
    assert kinds(events)[:2] == ["reshuffled", "drew"]
    assert state.discard == ["9H"]
    assert len(state.stock) == 54 - 15 - 1 - 1
    assert all_cards(state) == Counter(DECK)
    again, _ = act(GAME.load(data), "amina", DRAW)
    assert again.stock == state.stock  # the reshuffle is seeded


def test_with_stock_and_discard_exhausted_a_player_draws_what_there_is():
    """KAD-A7: both piles exhausted: the player draws nothing and play continues."""
    state = new_game(hands={"amina": ["3C", "4C", "5C", "6C", "10S"]}, start="9H")
    data = GAME.dump(state)
    data["hands"]["chausiku"] += data["stock"]
    data["stock"] = []
    state = GAME.load(data)
    state, events = act(state, "amina", DRAW)
    assert event(events, "drew").public["count"] == 0
    assert GAME.to_act(state) == ["baraka"]


def test_round_ends_blocked_when_nobody_can_play_or_draw():
    """KAD-A7 (engine decision): a whole table of turns without a card played or drawn ends the round."""
    state = new_game(hands={"amina": ["3C", "4C", "5C", "AC", "10S"]}, start="9H", points_limit=1000)
    data = GAME.dump(state)
    data["hands"]["chausiku"] += data["stock"]
    data["stock"] = []
    data["idle"] = 2  # baraka and chausiku (before amina) drew nothing either
    state = GAME.load(data)
    state, events = act(state, "amina", DRAW)
    assert kinds(events)[:3] == ["drew", "blocked", "round_scored"]
    assert event(events, "round_scored").public["winner"] is None
    assert event(events, "round_scored").public["points"]["amina"] == 3 + 4 + 5 + 1 + 10
    assert state.round == 2


# ----- K3: power cards -----------------------------------------------------------------------------


def test_two_makes_the_next_player_draw_two_and_lose_the_turn():
    """K3.1a, K3.1b, KAD-A8: the next player draws two cards and loses their turn."""
    state = new_game(hands={"amina": ["2H"], "baraka": BARAKA_PLAIN}, start="9H")
    state, events = act(state, "amina", play("2H"))
    assert event(events, "played").public["penalty"] == 2
    assert GAME.legal_actions(state, "baraka") == [DRAW]
    state, events = act(state, "baraka", DRAW)
    assert event(events, "penalty_drawn").public["count"] == 2
    assert len(state.hands["baraka"]) == 7
    assert GAME.to_act(state) == ["chausiku"] and state.pen_amount == 0


def test_joker_makes_the_next_player_draw_five_and_lose_the_turn():
    """K3.2a, K3.2b, KAD-A8: a joker's five cards are owed by the next player, who loses the turn."""
    state = new_game(hands={"amina": ["X"], "baraka": BARAKA_PLAIN}, start="9H")
    state, _ = act(state, "amina", play("X"))
    state, _ = act(state, "baraka", DRAW)
    assert len(state.hands["baraka"]) == 10
    assert GAME.to_act(state) == ["chausiku"]


def test_two_jokers_in_a_row_mean_drawing_ten():
    """K3.2c, K4.3: jokers stack on jokers: the third player draws ten."""
    state = new_game(hands={"amina": ["X"], "baraka": ["X"], "chausiku": CHAUSIKU_PLAIN}, start="9H")
    state, _ = act(state, "amina", play("X"))
    state, _ = act(state, "baraka", play("X"))
    state, events = act(state, "chausiku", DRAW)
    assert event(events, "penalty_drawn").public["owed"] == 10
    assert len(state.hands["chausiku"]) == 15


def test_seven_skips_the_next_player():
    """K3.3a, K3.3b: the next player is skipped."""
    state = new_game(hands={"amina": ["7H"]}, start="9H")
    state, events = act(state, "amina", play("7H"))
    assert event(events, "played").public["skipped"] == ["baraka"]
    assert GAME.to_act(state) == ["chausiku"]


def test_each_additional_seven_skips_one_more_player():
    """K3.3c, K5.1, KAD-A13: two 7s skip two players (3 players: back to the player of the 7s)."""
    state = new_game(hands={"amina": ["7H", "7S"]}, start="9H")
    state, events = act(state, "amina", play("7H", "7S"))
    assert event(events, "played").public["skipped"] == ["baraka", "chausiku"]
    assert GAME.to_act(state) == ["amina"]


def test_one_seven_in_a_two_player_game_gives_the_same_player_another_turn():
    """KAD-A13: with two players one 7 returns the turn to its player; two 7s pass it on."""
    state = new_game(TWO, hands={"amina": ["7H", "7S", "7D"]}, start="9H")
    after_one, _ = act(state, "amina", play("7H"))
    assert GAME.to_act(after_one) == ["amina"]
    after_two, _ = act(state, "amina", play("7H", "7S"))
    assert GAME.to_act(after_two) == ["baraka"]


def test_eight_reverses_the_direction_of_play():
    """K3.4a, K3.4b: an eight reverses the direction at once."""
    state = new_game(hands={"amina": ["8H", "3C"], "chausiku": ["3H", "4S"]}, start="9H")
    state, events = act(state, "amina", play("8H"))
    assert event(events, "played").public["direction"] == "anticlockwise"
    assert GAME.to_act(state) == ["chausiku"]
    state, _ = act(state, "chausiku", play("3H"))
    assert GAME.to_act(state) == ["baraka"]


def test_two_eights_together_leave_the_direction_unchanged():
    """KAD-A13: k eights reverse k times; an even number changes nothing."""
    state = new_game(hands={"amina": ["8H", "8S"]}, start="9H")
    state, _ = act(state, "amina", play("8H", "8S"))
    assert state.direction == 1 and GAME.to_act(state) == ["baraka"]


def test_eight_works_as_a_skip_in_a_two_player_game():
    """K3.4c, KAD-A13: with two players an eight is a skip."""
    state = new_game(TWO, hands={"amina": ["8H", "8S"]}, start="9H")
    after_one, _ = act(state, "amina", play("8H"))
    assert GAME.to_act(after_one) == ["amina"]
    after_two, _ = act(state, "amina", play("8H", "8S"))
    assert GAME.to_act(after_two) == ["baraka"]


def test_jack_can_be_played_on_anything():
    """K3.5a, K3.5b, KAD-A14: a J is a free card (here on 9H, different suit)."""
    state = new_game(hands={"amina": ["JC"]}, start="9H")
    state, events = act(state, "amina", play("JC", command={"suit": "S"}))
    assert event(events, "played").public["command"] == {"suit": "S"}


def test_jack_play_needs_a_command():
    """K3.5c, section 8: a play of Js without a command is refused (command_required)."""
    state = new_game(hands={"amina": ["JC", "4H"]}, start="9H")
    assert refused(state, "amina", play("JC")) == "command_required"
    assert refused(state, "amina", play("4H", command={"suit": "S"})) == "command_not_allowed"
    commands = [a.get("command") for a in GAME.legal_actions(state, "amina") if a.get("cards") == ["JC"]]
    assert commands == [{"suit": "S"}, {"suit": "H"}, {"suit": "D"}, {"suit": "C"}, {"power": True}]


def test_suit_command_must_be_followed_by_that_suit_or_a_jack():
    """K3.5c, KAD-A14 (a), KAD-A10 (a): the named suit or a J; a joker may not answer it."""
    state = new_game(hands={"amina": ["JH"], "baraka": ["9H", "X", "4C", "JD", "7S"]}, start="9S")
    state, _ = act(state, "amina", play("JH", command={"suit": "C"}))
    assert refused(state, "baraka", play("9H")) == "must_follow_command"
    assert refused(state, "baraka", play("X")) == "must_follow_command"
    assert refused(state, "baraka", play("7S")) == "must_follow_command"
    assert sorted(set(map(tuple, plays_of(state, "baraka")))) == [("4C",), ("JD",)]
    state, _ = act(state, "baraka", play("4C"))
    assert state.command is None


def test_power_command_is_answered_by_any_power_card_whose_effect_applies():
    """K3.5c, KAD-A14 (b): a 2, 7, 8, J or joker of any suit; a 2 starts its penalty."""
    state = new_game(hands={"amina": ["JH"], "baraka": ["2S", "7D", "8C", "X", "4H"]}, start="9S")
    state, _ = act(state, "amina", play("JH", command={"power": True}))
    assert sorted(map(tuple, plays_of(state, "baraka"))) == [("2S",), ("7D",), ("8C",), ("X",)]
    assert refused(state, "baraka", play("4H")) == "power_card_required"
    state, _ = act(state, "baraka", play("2S"))
    assert state.pen_amount == 2 and GAME.to_act(state) == ["chausiku"]


def test_commanded_player_who_cannot_comply_draws_one_and_the_command_stays():
    """K3.5d, KAD-A14: draw one; if it does not comply the turn ends and the command binds the next."""
    state = new_game(
        hands={"amina": ["JH"], "baraka": BARAKA_PLAIN, "chausiku": ["5H", "3D"]}, start="9S", stock=["4D"]
    )
    state, _ = act(state, "amina", play("JH", command={"suit": "H"}))
    state, events = act(state, "baraka", DRAW)
    assert event(events, "drew").public["count"] == 1
    assert GAME.to_act(state) == ["chausiku"] and state.command == "H"
    assert refused(state, "chausiku", play("3D")) == "must_follow_command"


def test_command_binds_the_next_player_only_with_the_next_player_option():
    """KAD-A14 table option: afterwards the J's own suit or rank applies."""
    state = new_game(
        hands={"amina": ["JC"], "baraka": BARAKA_PLAIN, "chausiku": ["5C", "3D", "AD", "4D", "10D"]},
        start="9S",
        stock=["7C"],
        command_scope="next_player",
    )
    state, _ = act(state, "amina", play("JC", command={"suit": "H"}))
    state, _ = act(state, "baraka", DRAW)
    assert state.command is None
    assert plays_of(state, "chausiku") == [["5C"]]


def test_a_player_who_can_comply_may_not_draw_instead():
    """KAD-A14, KAD-A6: complying is compulsory when possible."""
    state = new_game(hands={"amina": ["JH"], "baraka": ["4C", "3S", "4S", "5S", "6S"]}, start="9S")
    state, _ = act(state, "amina", play("JH", command={"suit": "C"}))
    assert refused(state, "baraka", DRAW) == "must_play"


def test_jack_on_jack_gives_a_new_command():
    """KAD-A14, K3.5e: a J may answer a J command and steers the game again."""
    state = new_game(hands={"amina": ["JH"], "baraka": ["JD", "4S"]}, start="9S")
    state, _ = act(state, "amina", play("JH", command={"suit": "C"}))
    state, _ = act(state, "baraka", play("JD", command={"power": True}))
    assert state.command == "power" and GAME.to_act(state) == ["chausiku"]


# ----- K4: stacking penalties ----------------------------------------------------------------------


def test_answering_a_two_with_a_two_makes_the_next_player_face_four():
    """K4.1, K4.2: penalties accumulate; 2 on 2 means four for the next player."""
    state = new_game(hands={"amina": ["2H"], "baraka": ["2S"], "chausiku": CHAUSIKU_PLAIN}, start="9H")
    state, _ = act(state, "amina", play("2H"))
    state, _ = act(state, "baraka", play("2S"))
    state, events = act(state, "chausiku", DRAW)
    assert event(events, "penalty_drawn").public["count"] == 4
    assert GAME.to_act(state) == ["amina"]


def test_the_stack_stops_when_a_player_refuses_to_add_and_draws_it_all():
    """K4.4: a player able to add may refuse: they draw the whole total and play continues."""
    state = new_game(hands={"amina": ["2H"], "baraka": ["2S", "3S"]}, start="9H")
    state, _ = act(state, "amina", play("2H"))
    assert {a["type"] for a in GAME.legal_actions(state, "baraka")} == {"play", "draw"}
    state, _ = act(state, "baraka", DRAW)
    assert GAME.to_act(state) == ["chausiku"] and state.pen_amount == 0


def test_twos_and_jokers_do_not_answer_each_other():
    """KAD-A9: a 2-stack only with 2s, a joker-stack only with jokers; nothing else while pending."""
    state = new_game(hands={"amina": ["2H", "X"], "baraka": ["X", "2S", "JD", "7H", "8H"]}, start="9H")
    after_two, _ = act(state, "amina", play("2H"))
    assert refused(after_two, "baraka", play("X")) == "penalty_pending"
    assert refused(after_two, "baraka", play("JD", command={"suit": "S"})) == "penalty_pending"
    assert refused(after_two, "baraka", play("7H")) == "penalty_pending"
    assert plays_of(after_two, "baraka") == [["2S"]]
    after_joker, _ = act(state, "amina", play("X"))
    assert refused(after_joker, "baraka", play("2S")) == "penalty_pending"
    assert plays_of(after_joker, "baraka") == [["X"]]


def test_mixed_stacking_option_lets_twos_and_jokers_add_up():
    """KAD-A9 table option mixed_stacking: either kind answers either stack; amounts add."""
    state = new_game(
        hands={"amina": ["2H"], "baraka": ["X"], "chausiku": CHAUSIKU_PLAIN}, start="9H", mixed_stacking=True
    )
    state, _ = act(state, "amina", play("2H"))
    state, _ = act(state, "baraka", play("X"))
    assert state.pen_amount == 7
    state, events = act(state, "chausiku", DRAW)
    assert event(events, "penalty_drawn").public["count"] == 7


def test_joker_plays_on_any_card_and_anything_follows_a_served_joker():
    """KAD-A10 (a, b): a joker goes on anything; once its penalty is served any card may follow."""
    state = new_game(hands={"amina": ["X"], "baraka": BARAKA_PLAIN, "chausiku": ["3C"]}, start="9H")
    state, _ = act(state, "amina", play("X"))
    state, _ = act(state, "baraka", DRAW)
    assert ["3C"] in plays_of(state, "chausiku")
    act(state, "chausiku", play("3C"))


def test_after_joker_card_below_option_matches_the_card_under_the_joker():
    """KAD-A10 table option card_below: after the penalty, match the card under the joker(s)."""
    state = new_game(
        hands={"amina": ["X"], "baraka": BARAKA_PLAIN, "chausiku": ["3C", "4H", "6S", "10S", "QS"]},
        start="9H",
        after_joker="card_below",
    )
    state, _ = act(state, "amina", play("X"))
    state, _ = act(state, "baraka", DRAW)
    assert refused(state, "chausiku", play("3C")) == "illegal_card"
    assert plays_of(state, "chausiku") == [["4H"]]
    assert GAME.view(state, "chausiku")["match_top"] == "9H"


def test_several_twos_at_once_add_their_amounts():
    """KAD-A11, K5.1: two 2s make four; a pending stack may be answered with several 2s."""
    state = new_game(hands={"amina": ["2H", "2S"], "baraka": ["2D", "2C"], "chausiku": CHAUSIKU_PLAIN}, start="9H")
    state, _ = act(state, "amina", play("2H", "2S"))
    assert state.pen_amount == 4
    state, _ = act(state, "baraka", play("2D", "2C"))
    assert state.pen_amount == 8


def test_after_a_two_is_served_it_is_matched_normally():
    """KAD-A12: the 2 stays on top: match its suit, any 2 (a new penalty) or a J."""
    state = new_game(
        hands={"amina": ["2H"], "baraka": BARAKA_PLAIN, "chausiku": ["3H", "2C", "JS", "AS", "5S"]}, start="9H"
    )
    state, _ = act(state, "amina", play("2H"))
    state, _ = act(state, "baraka", DRAW)
    assert sorted(set(tuple(p) for p in plays_of(state, "chausiku"))) == [("2C",), ("3H",), ("JS",)]
    assert refused(state, "chausiku", play("AS")) == "illegal_card"


# ----- K5: several cards at once ----------------------------------------------------------------


def test_four_nines_at_once_the_first_must_match_and_the_last_is_the_new_top():
    """K5.1, K5.2, KAD-A15: the first card matches the pile, the rest follow by number."""
    state = new_game(hands={"amina": ["9S", "9H", "9D", "9C", "3C"]}, start="4H")
    assert refused(state, "amina", play("9S", "9H", "9D", "9C")) == "illegal_card"
    assert refused(state, "amina", play("9H", "3C")) == "mixed_ranks"
    state, events = act(state, "amina", play("9H", "9S", "9D", "9C"))
    assert state.discard[-1] == "9C"
    assert event(events, "played").public["cards"] == ["9H", "9S", "9D", "9C"]


def test_legal_plays_enumerate_every_first_and_last_card():
    """KAD-A15: each legal first card, each subset of its rank, each possible last card."""
    state = new_game(hands={"amina": ["9H", "9S", "3C", "4C", "5C"]}, start="9D")
    assert sorted(map(tuple, plays_of(state, "amina"))) == [("9H",), ("9H", "9S"), ("9S",), ("9S", "9H")]
    state = new_game(hands={"amina": ["9H", "9S", "9C", "3C", "4D"]}, start="5H")
    assert sorted(map(tuple, plays_of(state, "amina"))) == [
        ("9H",), ("9H", "9C"), ("9H", "9C", "9S"), ("9H", "9S"), ("9H", "9S", "9C"),
    ]  # fmt: skip


def test_several_jacks_give_one_command():
    """KAD-A15, KAD-A14: Js played together carry one command."""
    state = new_game(hands={"amina": ["JH", "JS"]}, start="9D")
    state, events = act(state, "amina", play("JH", "JS", command={"suit": "D"}))
    assert state.command == "D" and state.discard[-1] == "JS"


def test_playing_out_of_turn_or_a_card_not_held_is_refused():
    """Section 7: only the player to act plays, and only cards from their hand."""
    state = new_game(hands={"amina": ["9S"]}, start="9H")
    assert refused(state, "baraka", play("3S")) == "not_your_turn"
    assert refused(state, "amina", play("AS")) == "not_in_hand"
    assert refused(state, "amina", play()) == "empty_play"
