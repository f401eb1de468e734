"""One test per rule (T1-T17) and resolution (T13-A1 to T13-A14) of docs/games/rules/three_thirteen.md."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.core.rng import rng_for, shuffled
from engine.three_thirteen import GAME
from engine.three_thirteen.melds import least_deadwood
from engine.three_thirteen.rules import MeldRules, deal_size, wild_rank

from .test_three_thirteen_helpers import (
    PLAYERS2,
    PLAYERS3,
    PLAYERS4,
    act,
    kinds,
    options,
    play_timeouts,
    refused,
    table,
)

DRAW_STOCK = {"type": "draw", "from": "stock"}
DRAW_PILE = {"type": "draw", "from": "discard"}


def discard(card):
    return {"type": "discard", "card": card}


def go_out(card, melds=None):
    action = {"type": "go_out", "discard": card}
    if melds is not None:
        action["melds"] = melds
    return action


def round_scored(events):
    return next(event for event in events if event.kind == "round_scored").public


# ----- overview ------------------------------------------------------------------------------
def test_lowest_total_wins_the_match():
    """T1: the fewest penalty points wins."""
    state = play_timeouts(GAME.new(PLAYERS3, options(), 11))
    totals = GAME.scores(state)
    rows = state.history
    assert len(rows) == 11
    assert totals == {p: sum(row["points"][p] for row in rows) for p in PLAYERS3}
    assert GAME.winners(state) == [p for p in PLAYERS3 if totals[p] == min(totals.values())]


def test_two_to_four_players():
    """T2: two to four players."""
    assert GAME.player_count_problem(["a"], options()) is not None
    assert GAME.player_count_problem(["a", "b", "c", "d", "e"], options()) is not None
    for players in (PLAYERS2, PLAYERS3, PLAYERS4):
        assert GAME.player_count_problem(players, options()) is None


def test_one_pack_for_two_players_two_packs_for_three_or_four():
    """T3: 52 cards for two players, 104 (every card twice) for three or four."""
    assert Counter(GAME.deck(options(), PLAYERS2)) == Counter({card: 1 for card in GAME.deck(options(), PLAYERS2)})
    assert len(GAME.deck(options(), PLAYERS2)) == 52
    for players in (PLAYERS3, PLAYERS4):
        deck = GAME.deck(options(), players)
        assert len(deck) == 104 and set(Counter(deck).values()) == {2}


def test_aces_are_low_and_runs_do_not_wrap():
    """T4, T13-A2: A-2-3 is a run, Q-K-A and K-A-2 are not."""
    rules = MeldRules(wild=13)
    assert rules.is_valid_meld(["AS", "2S", "3S"])
    assert not rules.is_valid_meld(["QS", "KH", "AS"]) and not rules.is_valid_meld(["QS", "JS", "AS"])
    assert not MeldRules(wild=5).is_valid_meld(["QS", "KS", "AS"])
    assert not MeldRules(wild=5).is_valid_meld(["KS", "AS", "2S"])


def test_a_match_has_eleven_rounds_and_round_stays_eleven():
    """T5, section 8: eleven rounds; after the match ends `round` stays 11."""
    state = play_timeouts(GAME.new(PLAYERS2, options(), 3))
    assert [row["round"] for row in state.history] == list(range(1, 12))
    assert GAME.round_number(state) == 11 and GAME.is_finished(state) and GAME.to_act(state) == []


# ----- set-up ---------------------------------------------------------------------------------
def test_first_dealer_is_random_and_the_deal_passes_left():
    """T6, T13-A10: random first dealer from the seed; the deal passes left; dealer's left starts."""
    state = GAME.new(PLAYERS3, options(), 42)
    dealer = rng_for(42, "dealer").choice(PLAYERS3)
    assert state.dealer == dealer
    left = PLAYERS3[(PLAYERS3.index(dealer) + 1) % 3]
    assert GAME.to_act(state) == [left]
    dealers = [dealer]
    while GAME.round_number(state) < 4:
        state, _ = act(state, "@clock", {"type": "timeout"})
        if state.dealer != dealers[-1]:
            dealers.append(state.dealer)
            assert GAME.to_act(state) == [PLAYERS3[(PLAYERS3.index(state.dealer) + 1) % 3]]
    assert dealers == [PLAYERS3[(PLAYERS3.index(dealer) + k) % 3] for k in range(4)]


def test_round_deals_three_to_thirteen_cards():
    """T7: 3 cards in round 1, one more each round, 13 in round 11."""
    assert [deal_size(r) for r in range(1, 12)] == list(range(3, 14))
    state = GAME.new(PLAYERS4, options(), 5)
    seen = {}
    while not GAME.is_finished(state):
        if state.phase == "draw" and state.round not in seen:
            seen[state.round] = {len(state.hands[p]) for p in PLAYERS4}
        state, _ = act(state, "@clock", {"type": "timeout"})
    assert seen == {r: {r + 2} for r in range(1, 12)}


def test_undealt_cards_form_the_stock_and_the_next_card_is_turned_up():
    """T8 and docs/REPLAY.md dealing order: one card at a time from the dealer's left, then upcard, then stock."""
    deck = shuffled(GAME.deck(options(), PLAYERS2), 9, "test")
    state = GAME.new(PLAYERS2, options(), 9, "baraka", [deck])
    assert state.hands["amina"] == deck[0:6:2] and state.hands["baraka"] == deck[1:6:2]
    assert state.discard == [deck[6]]
    assert state.stock == deck[7:]


# ----- play -----------------------------------------------------------------------------------
def test_a_turn_is_draw_then_discard():
    """T9: the dealer's left starts; draw from the stock or the discard pile, then discard."""
    state = table({"amina": ["9S", "KD", "5C"], "baraka": ["7H", "QC", "2D"]}, upcard="8D", stock=["JH", "4S"])
    assert GAME.to_act(state) == ["amina"]
    assert refused(state, "amina", discard("9S")) == "must_draw_first"
    assert refused(state, "baraka", DRAW_STOCK) == "not_your_turn"
    state, events = act(state, "amina", DRAW_STOCK)
    assert state.hands["amina"][-1] == "JH" and kinds(events) == ["drew"]
    assert refused(state, "amina", DRAW_PILE) == "already_drew"
    state, _ = act(state, "amina", discard("KD"))
    assert GAME.to_act(state) == ["baraka"] and state.discard == ["8D", "KD"]
    state, events = act(state, "baraka", DRAW_PILE)
    assert "KD" in state.hands["baraka"] and state.discard == ["8D"]
    assert events[0].public == {"player": "baraka", "from": "discard", "card": "KD"}


def test_go_out_when_all_but_one_card_meld():
    """T10: after drawing, meld all cards but one and discard it to go out."""
    state = table({"amina": ["5H", "6H", "9C"]}, upcard="2D", stock=["7H"])
    state, _ = act(state, "amina", DRAW_STOCK)
    assert {"type": "go_out", "discard": "9C"} in GAME.legal_actions(state, "amina")
    state, events = act(state, "amina", go_out("9C"))
    out = events[0]
    assert out.kind == "went_out" and out.public["melds"] == [["5H", "6H", "7H"]] and out.public["discard"] == "9C"
    assert state.hands["amina"] == [] and state.table["amina"] == [["5H", "6H", "7H"]]
    assert GAME.replay_hands(state)["amina"] == []


def test_cannot_go_out_when_the_rest_does_not_meld():
    """T10: going out needs every other card in a combination."""
    state = table({"amina": ["5H", "6H", "9C"]}, upcard="2D", stock=["8C"])
    state, _ = act(state, "amina", DRAW_STOCK)
    assert refused(state, "amina", go_out("9C")) == "cannot_go_out"
    assert not [a for a in GAME.legal_actions(state, "amina") if a["type"] == "go_out"]


def test_everyone_else_has_one_more_turn_then_the_round_ends():
    """T11, T13-A5: after the goer, each other player (clockwise) takes one turn; then scoring."""
    hands = {"amina": ["5H", "6H", "9C"], "baraka": ["KS", "QD", "8C"], "chausiku": ["2C", "JH", "10D"]}
    state = table(hands, players=PLAYERS3, dealer="chausiku", upcard="4D", stock=["7H", "AS", "AD"])
    state, _ = act(state, "amina", DRAW_STOCK)
    state, events = act(state, "amina", go_out("9C"))
    assert events[0].public["final_turns"] == ["baraka", "chausiku"]
    assert GAME.to_act(state) == ["baraka"] and GAME.round_number(state) == 1
    state, _ = act(state, "baraka", DRAW_STOCK)
    state, events = act(state, "baraka", discard("KS"))
    assert events == [events[0]] and GAME.to_act(state) == ["chausiku"]
    state, _ = act(state, "chausiku", DRAW_STOCK)
    state, events = act(state, "chausiku", discard("JH"))
    assert kinds(events) == ["discarded", "round_scored", "round_started"]
    scored = round_scored(events)
    assert scored["points"] == {"amina": 0, "baraka": 10 + 8 + 1, "chausiku": 2 + 10 + 1}
    assert GAME.round_number(state) == 2


def test_sets_and_runs_of_three_or_more():
    """T12, T13-A3: a set is 3+ of a rank (any suits, duplicates allowed); a run 3+ in suit."""
    rules = MeldRules(wild=13)
    assert rules.is_valid_meld(["6S", "6H", "6D"]) and rules.is_valid_meld(["9C", "9C", "9D"])
    assert rules.is_valid_meld(["6S", "6H", "6D", "6C", "6S"])
    assert rules.is_valid_meld(["3D", "4D", "5D", "6D"])
    assert not rules.is_valid_meld(["6S", "6H"]) and not rules.is_valid_meld(["3D", "4D", "5H"])
    assert not rules.is_valid_meld(["3D", "4D", "4D", "5D"]) and not rules.is_valid_meld(["3D", "5D", "6D"])


def test_a_card_belongs_to_one_combination_only():
    """T13: 5H cannot be both in the set of fives and in the run 5-6-7 of hearts."""
    rules = MeldRules(wild=3)
    assert least_deadwood(["5H", "5S", "5D", "6H", "7H"], rules) == 5 + 5
    assert least_deadwood(["5H", "5S", "5D", "5C", "6H", "7H"], rules) == 0


def test_no_laying_off_on_the_goers_melds():
    """T13, T13-A5: a card that would extend the goer's run stays in the hand and scores."""
    hands = {"amina": ["5H", "6H", "9C"], "baraka": ["8H", "KD", "QS"]}
    state = table(hands, upcard="2D", stock=["7H", "4C"])
    state, _ = act(state, "amina", DRAW_STOCK)
    state, _ = act(state, "amina", go_out("9C"))
    state, _ = act(state, "baraka", DRAW_STOCK)
    assert {a["type"] for a in GAME.legal_actions(state, "baraka")} == {"discard"}
    assert refused(state, "baraka", go_out("4C", [["5H", "6H", "7H", "8H"]])) == "melds_do_not_match_hand"
    state, events = act(state, "baraka", discard("4C"))
    assert round_scored(events)["points"]["baraka"] == 8 + 10 + 10


# ----- wild cards ------------------------------------------------------------------------------
def test_wild_rank_equals_the_number_of_cards_dealt():
    """T14: 3s in round 1, 4s in round 2, ... Jacks in round 9, Kings in round 11."""
    assert [wild_rank(r) for r in range(1, 12)] == list(range(3, 14))
    state = table({}, round_number=9)
    assert GAME.view(state, None)["wild_rank"] == "J" and len(state.hands["amina"]) == 11
    assert GAME.view(table({}, round_number=11), None)["wild_rank"] == "K"


def test_wild_cards_complete_sets_and_runs():
    """T15: a wild card substitutes for any card of a set or run."""
    rules = MeldRules(wild=3)
    assert rules.is_valid_meld(["5H", "3C", "7H"]) and rules.is_valid_meld(["9S", "9D", "3H"])
    assert rules.is_valid_meld(["QD", "3S", "3C"]) and rules.is_valid_meld(["JD", "QD", "3H"])
    state = table({"amina": ["5H", "3C", "9C"]}, upcard="2D", stock=["7H"])
    state, _ = act(state, "amina", DRAW_STOCK)
    state, events = act(state, "amina", go_out("9C"))
    assert sorted(events[0].public["melds"][0]) == ["3C", "5H", "7H"]


def test_a_meld_of_wild_cards_only_is_invalid():
    """T13-A1: every meld needs a card not of the wild rank (3-3-3 in round 1, J-J-J in round 9)."""
    assert not MeldRules(wild=3).is_valid_meld(["3S", "3H", "3D"])
    assert not MeldRules(wild=11).is_valid_meld(["JC", "JD", "JH"])
    state = table({"amina": ["3S", "3H", "9C"]}, upcard="2D", stock=["3D"])
    state, _ = act(state, "amina", DRAW_STOCK)
    assert refused(state, "amina", go_out("9C", [["3S", "3H", "3D"]])) == "invalid_meld"
    assert refused(state, "amina", go_out("9C")) == "cannot_go_out"


def test_wild_only_melds_option_allows_them():
    """T13-A1 table option `wild_only_melds`: pagat's all-wild melds."""
    assert MeldRules(wild=3, wild_only=True).is_valid_meld(["3S", "3H", "3D"])
    state = table({"amina": ["3S", "3H", "9C"]}, upcard="2D", stock=["3D"], wild_only_melds=True)
    state, _ = act(state, "amina", DRAW_STOCK)
    state, events = act(state, "amina", go_out("9C"))
    assert sorted(events[0].public["melds"][0]) == ["3D", "3H", "3S"]


# ----- scoring ---------------------------------------------------------------------------------
def test_left_over_cards_score_penalties():
    """T16: A 1, 2-10 face value, J Q K 10."""
    hands = {"amina": ["5H", "6H", "9C"], "baraka": ["AS", "10D", "KC"]}
    state = table(hands, upcard="2D", stock=["7H", "JH"])
    state, _ = act(state, "amina", DRAW_STOCK)
    state, _ = act(state, "amina", go_out("9C"))
    state, _ = act(state, "baraka", DRAW_STOCK)
    state, events = act(state, "baraka", discard("KC"))
    assert round_scored(events)["points"] == {"amina": 0, "baraka": 1 + 10 + 10}
    assert GAME.scores(state) == {"amina": 0, "baraka": 21}


def test_hands_are_scored_by_their_best_arrangement():
    """T13-A6: the engine arranges each hand to leave the least deadwood; the goer scores 0."""
    hands = {"amina": ["2C", "3C", "4C", "6C", "9D"], "baraka": ["6S", "7S", "8S", "8H", "8D"]}
    state = table(hands, round_number=3, upcard="QC", stock=["5C", "AC"])
    state, _ = act(state, "amina", DRAW_STOCK)
    state, _ = act(state, "amina", go_out("9D"))
    state, _ = act(state, "baraka", DRAW_STOCK)
    state, events = act(state, "baraka", discard("AC"))
    scored = round_scored(events)
    assert scored["points"]["baraka"] == 6 + 7  # the set of eights, not the run 6-7-8
    assert sorted(scored["hands"]["baraka"]["deadwood_cards"]) == ["6S", "7S"]


def test_unmelded_wild_cards_score_their_natural_value():
    """T13-A6: an unused King in round 11 scores 10 (13 with court_values rank)."""
    assert least_deadwood(["KS", "2C", "5D"], MeldRules(wild=13)) == 10 + 2 + 5
    assert least_deadwood(["KS", "2C", "5D"], MeldRules(wild=13, court_rank=True)) == 13 + 2 + 5


# ----- resolutions ----------------------------------------------------------------------------
def test_go_out_requires_a_discard_even_when_everything_melds():
    """T13-A4: n cards meld, the (n+1)th is discarded; any card, a wild one included."""
    state = table({"amina": ["5H", "6H", "7H"]}, upcard="2D", stock=["3S"])
    state, _ = act(state, "amina", DRAW_STOCK)
    outs = {a["discard"] for a in GAME.legal_actions(state, "amina") if a["type"] == "go_out"}
    assert outs == {"5H", "6H", "7H", "3S"}  # without 6H, the wild 3S stands in for it
    state_wild, events = act(state, "amina", go_out("3S"))
    assert events[0].public["discard"] == "3S" and state_wild.discard[-1] == "3S"
    assert refused(state, "amina", go_out("9D")) == "not_in_hand"


def test_go_out_with_stated_melds():
    """Section 7: `melds` states the arrangement; it must be valid and use the rest of the hand."""
    state = table({"amina": ["5H", "6H", "7H"]}, upcard="2D", stock=["3S"])
    state, _ = act(state, "amina", DRAW_STOCK)
    assert refused(state, "amina", go_out("3S", [["5H", "6H"], ["7H"]])) == "invalid_meld"
    assert refused(state, "amina", go_out("3S", [["5H", "6H", "7H", "7H"]])) == "melds_do_not_match_hand"
    state, events = act(state, "amina", go_out("7H", [["5h", "6H", "3S"]]))
    assert state.table["amina"] == [["5H", "6H", "3S"]]


def test_only_the_top_discard_may_be_taken_and_discarded_again():
    """T13-A7: the top card of the pile is taken; by default it may be discarded straight away."""
    state = table({"amina": ["5H", "6H", "9C"]}, upcard="KD", stock=["2S"])
    taken, _ = act(state, "amina", DRAW_PILE)
    assert taken.hands["amina"][-1] == "KD" and taken.discard == []
    back, _ = act(taken, "amina", discard("KD"))  # the KD may go straight back
    assert back.discard == ["KD"] and sorted(back.hands["amina"]) == ["5H", "6H", "9C"]
    state, _ = act(state, "amina", DRAW_STOCK)
    state, _ = act(state, "amina", discard("9C"))
    assert state.discard == ["KD", "9C"]
    state, _ = act(state, "baraka", DRAW_PILE)
    assert state.hands["baraka"][-1] == "9C" and state.discard == ["KD"]
    state, _ = act(state, "baraka", discard("9C"))
    assert state.discard == ["KD", "9C"]


def test_discard_taken_card_option_forbids_it_and_its_twin():
    """T13-A7 option, section 8: the taken card, an identical copy, and going out by discarding it."""
    hands = {"amina": ["KD", "6H", "7H"], "baraka": ["2C", "9S", "JS"], "chausiku": ["4D", "QC", "8S"]}
    state = table(hands, players=PLAYERS3, upcard="KD", stock=["5H"], discard_taken_card=False)
    state, _ = act(state, "amina", DRAW_PILE)
    assert refused(state, "amina", discard("KD")) == "cannot_discard_taken_card"
    assert all(a.get("card") != "KD" and a.get("discard") != "KD" for a in GAME.legal_actions(state, "amina"))
    state, _ = act(state, "amina", discard("6H"))
    hands2 = {"amina": ["5H", "6H", "KD"]}
    state = table(hands2, players=PLAYERS3, upcard="7H", stock=["2C"], discard_taken_card=False)
    state, _ = act(state, "amina", DRAW_PILE)
    assert refused(state, "amina", go_out("7H")) == "cannot_discard_taken_card"
    state, _ = act(state, "amina", go_out("KD"))


def test_stock_runs_out_the_pile_is_reshuffled():
    """T13-A8: the discard pile but its top card is shuffled into a new stock (seeded)."""
    state = table({"amina": ["AS", "QH", "9C"], "baraka": ["2D", "JC", "8S"]}, seed=77)
    while state.stock:
        player = GAME.to_act(state)[0]
        state, _ = act(state, player, DRAW_STOCK)
        state, _ = act(state, player, discard(state.hands[player][-1]))
    pile = state.discard
    player = GAME.to_act(state)[0]
    state, events = act(state, player, DRAW_STOCK)
    assert kinds(events) == ["stock_reshuffled", "drew"]
    expected = shuffled(pile[:-1], 77, "reshuffle", 1, 1)
    assert state.hands[player][-1] == expected[0] and state.stock == expected[1:]
    assert state.discard == [pile[-1]]


def test_going_out_on_the_first_turn_is_allowed():
    """T13-A11: allowed by default."""
    state = table({"amina": ["5H", "6H", "9C"]}, upcard="7H")
    state, _ = act(state, "amina", DRAW_PILE)
    state, events = act(state, "amina", go_out("9C"))
    assert events[0].kind == "went_out"


def test_first_turn_go_out_option_waits_one_round():
    """T13-A11 option, section 8: no player may go out on their own first turn of a round."""
    hands = {"amina": ["5H", "6H", "9C"], "baraka": ["2D", "JC", "8S"]}
    state = table(hands, upcard="7H", stock=["KC", "QD", "4S"], first_turn_go_out=False)
    state, _ = act(state, "amina", DRAW_PILE)
    assert refused(state, "amina", go_out("9C")) == "first_turn_no_go_out"
    assert not [a for a in GAME.legal_actions(state, "amina") if a["type"] == "go_out"]
    state, _ = act(state, "amina", discard("9C"))
    state, _ = act(state, "baraka", DRAW_STOCK)
    state, _ = act(state, "baraka", discard("KC"))
    state, _ = act(state, "amina", DRAW_STOCK)
    state, events = act(state, "amina", go_out("QD"))
    assert events[0].kind == "went_out"


def _round_eleven_tie(**chosen):
    hands = {
        "amina": ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "9D"],
        "baraka": ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "9C"],
    }
    state = table(hands, round_number=11, upcard="2D", stock=["KD", "KC"], dealer="baraka", **chosen)
    state, _ = act(state, "amina", DRAW_STOCK)
    state, _ = act(state, "amina", go_out("9D"))
    state, _ = act(state, "baraka", DRAW_STOCK)
    return act(state, "baraka", discard("9C"))


def test_a_tie_at_the_end_is_a_shared_win():
    """T13-A12: equal lowest totals share the win."""
    state, events = _round_eleven_tie()
    assert GAME.is_finished(state) and GAME.winners(state) == ["amina", "baraka"]
    assert kinds(events)[-1] == "match_over" and GAME.round_number(state) == 11


def test_tiebreak_round_option_plays_one_more_round():
    """T13-A12 option, section 8: the tied alone play 13 cards, kings wild, dealt by the next dealer."""
    state, events = _round_eleven_tie(tie="tiebreak_round")
    assert kinds(events)[-2:] == ["tie_break", "round_started"]
    assert GAME.round_number(state) == 12 and state.dealer == "amina" and GAME.to_act(state) == ["baraka"]
    assert GAME.view(state, None)["wild_rank"] == "K" and len(state.hands["baraka"]) == 13
    state = play_timeouts(state)
    totals = GAME.scores(state)
    assert GAME.winners(state) == [p for p in PLAYERS2 if totals[p] == min(totals.values())]
    assert GAME.round_number(state) == 12


def test_tiebreak_round_leaves_out_players_not_tied():
    """T13-A12 option: only the tied players are dealt in; the next dealer among them deals."""
    hands = {
        "amina": ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "9D"],
        "baraka": ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "9C"],
        "chausiku": ["AC", "AD", "2C", "2D", "4C", "4D", "6C", "6D", "8C", "8D", "10C", "10D", "QC"],
    }
    state = table(
        hands,
        players=PLAYERS3,
        round_number=11,
        upcard="2H",
        stock=["KD", "KC", "3C"],
        dealer="chausiku",
        tie="tiebreak_round",
    )
    state, _ = act(state, "amina", DRAW_STOCK)
    state, _ = act(state, "amina", go_out("9D"))
    state, _ = act(state, "baraka", DRAW_STOCK)
    state, _ = act(state, "baraka", discard("9C"))
    state, _ = act(state, "chausiku", DRAW_STOCK)
    state, events = act(state, "chausiku", discard("QC"))
    assert GAME.round_number(state) == 12 and state.seated == ["amina", "baraka"]
    assert state.dealer == "amina" and state.hands["chausiku"] == []
    assert GAME.to_act(state) == ["baraka"]


def test_the_upcard_may_be_wild_and_taken():
    """T13-A13: the first discard may be a wild card, and the first player may take it."""
    state = table({"amina": ["5H", "6H", "9C"]}, upcard="3D")
    state, _ = act(state, "amina", DRAW_PILE)
    state, events = act(state, "amina", go_out("9C"))
    assert sorted(events[0].public["melds"][0]) == ["3D", "5H", "6H"]


def test_goers_melds_are_announced_and_others_revealed_at_round_end():
    """T13-A14: X's melds and discard are public at once; the other hands only at the round's end."""
    hands = {"amina": ["5H", "6H", "9C"], "baraka": ["AS", "10D", "KC"]}
    state = table(hands, upcard="2D", stock=["7H", "JH"])
    state, _ = act(state, "amina", DRAW_STOCK)
    state, events = act(state, "amina", go_out("9C"))
    assert events[0].view("baraka")["melds"] == [["5H", "6H", "7H"]]
    assert GAME.view(state, "baraka")["table_melds"] == {"amina": [["5H", "6H", "7H"]]}
    assert "AS" not in str(GAME.view(state, "amina")) and "AS" not in str(events[0].view(None))
    state, _ = act(state, "baraka", DRAW_STOCK)
    state, events = act(state, "baraka", discard("JH"))
    revealed = round_scored(events)["hands"]["baraka"]
    assert sorted(revealed["deadwood_cards"]) == ["10D", "AS", "KC"]
    assert GAME.view(state, "amina")["last_round"]["hands"]["baraka"] == revealed


# ----- options and the actions of section 7 -------------------------------------------------
def test_option_defaults_match_the_spec():
    """Section 6: option names and defaults."""
    assert options().model_dump() == {
        "wild_only_melds": False,
        "ace": "low",
        "court_values": "ten",
        "jokers": 0,
        "discard_taken_card": True,
        "first_turn_go_out": True,
        "tie": "shared",
    }


def test_ace_high_or_low_option():
    """Section 6 `ace`, section 8: Q-K-A is a run, K-A-2 never; an unmelded ace scores 15."""
    rules = MeldRules(wild=5, ace_high=True)
    assert rules.is_valid_meld(["QS", "KS", "AS"]) and rules.is_valid_meld(["AS", "2S", "3S"])
    assert rules.is_valid_meld(["QS", "5D", "AS"]) and not rules.is_valid_meld(["KS", "AS", "2S"])
    assert least_deadwood(["AS", "2C", "9D"], rules) == 15 + 2 + 9
    state = table({"amina": ["QH", "KH", "9C"]}, upcard="AH", ace="high_or_low")
    state, _ = act(state, "amina", DRAW_PILE)
    state, events = act(state, "amina", go_out("9C"))
    assert sorted(events[0].public["melds"][0]) == ["AH", "KH", "QH"]


def test_court_values_rank_option():
    """Section 6 `court_values`: J 11, Q 12, K 13 when unmelded."""
    assert least_deadwood(["JS", "QC", "KD"], MeldRules(wild=3, court_rank=True)) == 11 + 12 + 13
    assert least_deadwood(["JS", "QC", "KD"], MeldRules(wild=3)) == 30


def test_jokers_option_adds_always_wild_jokers():
    """Section 6 `jokers`, section 8: jokers in the whole game, always wild, 20 unmelded."""
    assert Counter(GAME.deck(options(jokers=2), PLAYERS2))["X"] == 2
    assert Counter(GAME.deck(options(jokers=4), PLAYERS3))["X"] == 4
    rules = MeldRules(wild=3)
    assert rules.is_valid_meld(["5H", "X", "7H"]) and not rules.is_valid_meld(["X", "X", "3S"])
    assert not rules.is_valid_meld(["X", "QS", "KS", "AS"])  # jokers do not make aces high
    assert least_deadwood(["X", "2C", "9D"], rules) == 20 + 2 + 9
    assert least_deadwood(["X", "2C", "3D"], rules) == 0
    state = table({"amina": ["5H", "X", "9C"]}, upcard="7H", jokers=2)
    state, _ = act(state, "amina", DRAW_PILE)
    state, _ = act(state, "amina", go_out("9C"))
    plain = act(table({"amina": ["5H", "6H", "9C"]}, upcard="7H"), "amina", DRAW_PILE)[0]
    assert refused(plain, "amina", discard("X")) == "not_in_deck"


def test_timeout_at_the_draw_step_draws_from_stock_and_discards_the_costliest_dead_card():
    """Section 7 timeout: draw from stock, discard the card leaving least deadwood."""
    state = table({"amina": ["5H", "6H", "2C"]}, upcard="7H", stock=["KD"])
    state, events = act(state, "@clock", {"type": "timeout"})
    assert kinds(events) == ["timed_out", "drew", "discarded"]
    assert events[2].public["card"] == "KD" and sorted(state.hands["amina"]) == ["2C", "5H", "6H"]
    assert "KD" not in str(events[1].view("baraka")) and events[1].view("amina")["card"] == "KD"


def test_timeout_ties_go_to_higher_value_then_rank_then_suit_order():
    """Section 8: ties: the higher penalty value, then the higher rank, then suit order S, H, D, C."""
    state = table({"amina": ["KD", "2C", "4H"]}, upcard="9H", stock=["KS"])
    state, events = act(state, "@clock", {"type": "timeout"})
    assert events[-1].public["card"] == "KS"
    state = table({"amina": ["10H", "2C", "4H"]}, upcard="9H", stock=["JD"])
    state, events = act(state, "@clock", {"type": "timeout"})
    assert events[-1].public["card"] == "JD"


def test_timeout_at_the_discard_step_goes_out_when_it_can():
    """Section 8: a timeout after drawing goes out if the rest melds."""
    state = table({"amina": ["5H", "6H", "2C"]}, upcard="7H")
    state, _ = act(state, "amina", DRAW_PILE)
    state, events = act(state, "@clock", {"type": "timeout"})
    assert kinds(events)[:2] == ["timed_out", "went_out"] and events[1].public["discard"] == "2C"


def test_timeout_skips_the_taken_card_when_it_is_forbidden():
    """Section 8: the timeout's discard skips a card that discard_taken_card false forbids."""
    state = table({"amina": ["5H", "6H", "2C"]}, upcard="KD", discard_taken_card=False)
    state, _ = act(state, "amina", DRAW_PILE)
    state, events = act(state, "@clock", {"type": "timeout"})
    # KD would leave least deadwood (13), so the next best goes: 6H leaves 5H 2C KD = 17
    assert events[-1].kind == "discarded" and events[-1].public["card"] == "6H"


def test_going_out_on_a_final_turn_does_not_end_the_round_early():
    """Section 8, T13-A5: a final-turn go_out works as that player's discard; hands empty."""
    hands = {"amina": ["5H", "6H", "9C"], "baraka": ["8S", "8D", "2C"], "chausiku": ["KS", "QD", "JC"]}
    state = table(hands, players=PLAYERS3, dealer="chausiku", upcard="4D", stock=["7H", "8C", "AS"])
    state, _ = act(state, "amina", DRAW_STOCK)
    state, _ = act(state, "amina", go_out("9C"))
    state, _ = act(state, "baraka", DRAW_STOCK)
    state, events = act(state, "baraka", go_out("2C"))
    assert events[0].public["first"] is False and GAME.to_act(state) == ["chausiku"]
    assert GAME.replay_hands(state)["baraka"] == [] and GAME.round_number(state) == 1
    state, _ = act(state, "chausiku", DRAW_STOCK)
    state, events = act(state, "chausiku", discard("KS"))
    assert round_scored(events)["points"] == {"amina": 0, "baraka": 0, "chausiku": 10 + 10 + 1}


def test_actions_out_of_vocabulary_are_malformed():
    """Section 7: only draw (stock|discard), discard, go_out and the clock's timeout exist."""
    from engine.core.protocol import MalformedAction

    for bad in (
        {"type": "draw", "from": "pile"},
        {"type": "draw"},
        {"type": "discard", "card": "1Z"},
        {"type": "go_out", "discard": "9C", "melds": "5H"},
        {"type": "go_out", "discard": "9C", "melds": [["5H", 7]]},
        {"type": "lay_off", "card": "5H"},
    ):
        with pytest.raises(MalformedAction):
            GAME.check_action("amina", bad, PLAYERS2)
    assert GAME.check_action("amina", {"type": "go_out", "discard": "9c", "melds": [["5h"]]}, PLAYERS2) == {
        "type": "go_out",
        "discard": "9C",
        "melds": [["5H"]],
    }


def test_wild_cards_fill_gaps_and_ends_but_not_beyond_ace_or_king():
    """T13-A2: several wilds in a run, in gaps or at either end, never below A or above K."""
    rules = MeldRules(wild=3)
    assert rules.is_valid_meld(["QS", "KS", "3H"])  # J-Q-K: the wild cannot be a rank above K
    assert rules.is_valid_meld(["AS", "3H", "3D", "4S"])  # A-2-3-4: the wild 3s fill the gap
    assert not rules.is_valid_meld(["AS", "3H", "3D", "5S"])  # A-2-3-4-5 would need a third wild
    assert rules.is_valid_meld(["5S", "9S", "3H", "3D", "3C"])  # 5-6-7-8-9
    assert not rules.is_valid_meld(["5S", "9S", "3H", "3D"])  # two wilds cannot bridge three gaps
    spades = ["AS", "2S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS"]
    assert rules.is_valid_meld(spades + ["3H"])  # a 13-card run A..K
    assert not rules.is_valid_meld(spades + ["3H", "3D"])  # a 14th card would be beyond A or K


def test_apply_accepts_card_codes_in_any_case():
    """docs/REPLAY.md card notation: input is case-insensitive."""
    state = table({"amina": ["5H", "6H", "9C"]}, upcard="2D", stock=["7H"])
    state = GAME.apply(state, "amina", DRAW_STOCK).state
    result = GAME.apply(state, "amina", {"type": "go_out", "discard": "9c"})
    assert result.ok and result.state.discard[-1] == "9C"


def test_each_player_is_shown_their_best_arrangement():
    """Issue 7 / T13-A6: the view shows the player's own best arrangement and its penalty."""
    state = table({"amina": ["5H", "6H", "9C"]}, upcard="7H")
    state, _ = act(state, "amina", DRAW_PILE)
    best = GAME.view(state, "amina")["best_arrangement"]
    assert best == {"melds": [["5H", "6H", "7H"]], "deadwood_cards": ["9C"], "deadwood": 9}
    assert "best_arrangement" not in GAME.view(state, None)


def test_scores_accumulate_over_the_rounds():
    """T17: each round's penalties add to the totals."""
    hands = {"amina": ["5H", "6H", "9C"], "baraka": ["AS", "10D", "KC"]}
    state = table(hands, upcard="2D", stock=["7H", "JH"])
    state, _ = act(state, "amina", DRAW_STOCK)
    state, _ = act(state, "amina", go_out("9C"))
    state, _ = act(state, "baraka", DRAW_STOCK)
    state, _ = act(state, "baraka", discard("KC"))
    after_one = GAME.scores(state)
    while GAME.round_number(state) == 2:
        state, events = act(state, "@clock", {"type": "timeout"})
    second = round_scored(events)["points"]
    assert GAME.scores(state) == {p: after_one[p] + second[p] for p in PLAYERS2}


def test_final_turns_go_clockwise_from_the_goers_left():
    """T13-A5: with four players, after chausiku goes out: daudi, amina, baraka, then scoring."""
    hands = {"chausiku": ["5H", "6H", "9C"]}
    stock = ["KD", "KS", "7H", "QD", "QS", "QC", "JD"]
    state = table(hands, players=PLAYERS4, dealer="daudi", upcard="2D", stock=stock)
    for player in ("amina", "baraka"):
        state, _ = act(state, player, DRAW_STOCK)
        state, _ = act(state, player, discard(state.hands[player][-1]))
    state, _ = act(state, "chausiku", DRAW_STOCK)
    state, events = act(state, "chausiku", go_out("9C"))
    assert events[0].public["final_turns"] == ["daudi", "amina", "baraka"]
    order = []
    while GAME.round_number(state) == 1:
        player = GAME.to_act(state)[0]
        order.append(player)
        state, _ = act(state, player, DRAW_STOCK)
        state, events = act(state, player, discard(state.hands[player][-1]))
    assert order == ["daudi", "amina", "baraka"] and kinds(events)[1] == "round_scored"


def test_packs_follow_the_number_of_players():
    """T13-A9: 2 players one pack, 3-4 players two packs; more than 4 are not seated."""
    for players, size in ((PLAYERS2, 52), (PLAYERS3, 104), (PLAYERS4, 104)):
        state = GAME.new(players, options(), 1)
        held = sum(len(hand) for hand in state.hands.values())
        assert held + len(state.stock) + len(state.discard) == size
    with pytest.raises(ValueError):
        GAME.new(PLAYERS4 + ["eliza"], options(), 1)


def test_the_player_left_of_the_dealer_starts_every_round():
    """T13-A10: the dealer's left starts, every round, as the deal rotates."""
    state = GAME.new(PLAYERS4, options(), 8, "baraka")
    starters = []
    while not GAME.is_finished(state):
        if state.phase == "draw" and state.turns_taken and not any(state.turns_taken.values()):
            if not starters or starters[-1][0] != state.round:
                starters.append((state.round, state.dealer, GAME.to_act(state)[0]))
        state, _ = act(state, "@clock", {"type": "timeout"})
    assert len(starters) == 11
    for _, dealer, first in starters:
        assert first == PLAYERS4[(PLAYERS4.index(dealer) + 1) % 4]
