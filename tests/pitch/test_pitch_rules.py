"""One test per rule (P…) and resolution (PIT-A…) of docs/games/rules/pitch.md, each from an explicit deck."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from engine.core.cards import Card
from engine.core.protocol import CLOCK, Applied, Refused
from engine.core.rng import rng_for
from engine.pitch import GAME, PitchOptions
from engine.pitch.cards import DECK
from engine.pitch.dealing import HAND_SIZE

TWO = ["amina", "baraka"]
THREE = ["amina", "baraka", "chausiku"]
FOUR = ["amina", "baraka", "chausiku", "dudu"]

PASS = {"type": "pass"}


def stack_deck(hands: Sequence[Sequence[Card]], dealer: int) -> list[Card]:
    """A 52-card deck that deals `hands[seat]` to each seat when `dealer` deals; the rest follow in pack order.

    The inverse of engine.pitch.dealing.deal: the tests' way to set up an exact situation.
    """
    seats = len(hands)
    wanted = [[c.upper() for c in hand] for hand in hands]
    if any(len(hand) != HAND_SIZE for hand in wanted):
        raise ValueError("every hand needs exactly six cards")
    order: list[Card] = []
    for rotation in range(HAND_SIZE):
        for step in range(seats):
            order.append(wanted[(dealer + 1 + step) % seats][rotation])
    if len(set(order)) != len(order) or not set(order) <= set(DECK):
        raise ValueError("hands must hold distinct cards of the 52-card pack")
    taken = set(order)
    return order + [card for card in DECK if card not in taken]


def BID(value: int) -> dict:  # noqa: N802 - reads like the action it builds
    return {"type": "bid", "value": value}


def play(card: str) -> dict:
    return {"type": "play", "card": card}


def table(hands: dict[str, Sequence[str]], dealer: str | None = None, scores: dict[str, int] | None = None, **options):
    """A match whose first deal gives each player exactly `hands[player]`; the dealer defaults to the last seat.

    `scores` sets the match totals before the hand (by player; a team's total with partnerships).
    """
    players = list(hands)
    dealer = dealer or players[-1]
    deck = stack_deck([hands[p] for p in players], players.index(dealer))
    state = GAME.new(players, PitchOptions(**options), seed=5, dealer=dealer, decks=[deck])
    if scores:
        data = GAME.dump(state)
        for seat, player in enumerate(players):
            team = seat % 2 if options.get("partnerships") else seat
            data["scores"][team] = scores.get(player, data["scores"][team])
        state = GAME.load(data)
    return state


def ok(state, player, action):
    result = GAME.apply(state, player, action)
    assert isinstance(result, Applied), result
    return result.state


def refused(state, player, action) -> str:
    result = GAME.apply(state, player, action)
    assert isinstance(result, Refused), f"{action} by {player} was accepted"
    return result.code


def run(state, bids: Sequence[tuple[str, dict]], cards: str = ""):
    """Apply the bids, then play `cards` (space separated) by whoever is to act; return state and events."""
    events = []
    for player, action in bids:
        result = GAME.apply(state, player, action)
        assert isinstance(result, Applied), (player, action, result)
        state, events = result.state, events + result.events
    for card in cards.split():
        player = GAME.to_act(state)[0]
        result = GAME.apply(state, player, play(card))
        assert isinstance(result, Applied), (player, card, result)
        state, events = result.state, events + result.events
    return state, events


def first(cards: str, count: int) -> str:
    return " ".join(cards.split()[:count])


def scored(events) -> dict:
    [event] = [e for e in events if e.kind == "hand_scored"]
    return event.public


# A two-player hand in which amina takes every trick: High AH, Low 2H (baraka's), Jack JH, Game 18-0.
SWEEP = {"amina": ["AH", "KH", "JH", "10S", "3C", "4C"], "baraka": ["2H", "5S", "6S", "7D", "8D", "9D"]}
SWEEP_PLAY = "AH 2H KH 5S JH 6S 10S 7D 3C 8D 4C 9D"
# Two players; the Jack of hearts is the only trump; baraka takes Game with AS and 10S.
JACK_ONLY = {"amina": ["JH", "2S", "3S", "4S", "5S", "6S"], "baraka": ["7C", "AS", "10S", "2D", "3D", "4D"]}
JACK_ONLY_PLAY = "JH 7C 2S AS 10S 3S 2D 4S 3D 5S 4D 6S"
# Two players with no counting cards: trumps 9H and 2H in play, Jack not in play, Game tied at 0.
NO_COUNT = {"amina": ["9H", "2H", "3S", "4S", "5S", "6S"], "baraka": ["3C", "4C", "5C", "6C", "7C", "8C"]}
NO_COUNT_PLAY = "9H 3C 2H 4C 3S 5C 4S 6C 5S 7C 6S 8C"
# Three players; 2H is the only trump; amina and baraka both take 10 trick points.
TIED = {
    "amina": ["2H", "3S", "4S", "5S", "6S", "7S"],
    "baraka": ["10D", "10S", "2D", "3D", "4D", "5D"],
    "chausiku": ["8C", "9C", "2C", "3C", "4C", "5C"],
}
TIED_PLAY = "2H 10D 8C 3S 10S 9C 2D 2C 4S 3D 3C 5S 4D 4C 6S 5D 5C 7S"
# Four players; chausiku captures Low (2H) by trumping over it in trick 2.
LOW_CAPTURED = {
    "amina": ["AH", "2C", "3C", "4C", "5C", "6C"],
    "baraka": ["7S", "8S", "9S", "7D", "8D", "9D"],
    "chausiku": ["5H", "3H", "2S", "3S", "4S", "5S"],
    "dudu": ["4H", "2H", "2D", "3D", "4D", "5D"],
}
LOW_CAPTURED_PLAY = "AH 7S 5H 4H 2C 8S 3H 2H 2S 2D 3C 9S 7D 3S 3D 4C 8D 4S 4D 5C 9D 5S 5D 6C"
FOUR_PASS = [("baraka", PASS), ("chausiku", PASS), ("dudu", PASS)]


# ----- Basics and setup -----------------------------------------------------------------------


def test_two_to_seven_players_may_sit():
    """P2 / PIT-A15: 3-7 players, and 2 as well; 1 or 8 cannot play."""
    options = PitchOptions()
    assert GAME.player_count_problem(TWO, options) is None
    assert GAME.player_count_problem([f"p{i}" for i in range(7)], options) is None
    assert GAME.player_count_problem(["solo"], options)
    assert GAME.player_count_problem([f"p{i}" for i in range(8)], options)


def test_ace_is_high_and_two_is_low():
    """P3: A K Q J 10 … 2 in every suit; the ace of the led suit beats the king."""
    state = table({"amina": ["KS", "2H", "3H", "4H", "5H", "6H"], "baraka": ["AS", "2C", "3C", "4C", "5C", "6C"]})
    state, events = run(state, [("amina", BID(2)), ("baraka", PASS)], "2H 2C KS AS")
    assert [e.public["player"] for e in events if e.kind == "trick_won"] == ["amina", "baraka"]


def test_six_cards_dealt_one_at_a_time_from_the_dealers_left():
    """P5 and README's dealing order: card 0 to the dealer's left, the dealer last, six rotations."""
    deck = GAME.deck(PitchOptions(), THREE)
    state = GAME.new(THREE, PitchOptions(), seed=1, dealer="chausiku", decks=[deck])
    hands = GAME.replay_hands(state)
    assert sorted(hands["amina"]) == sorted(deck[0:18:3])
    assert sorted(hands["baraka"]) == sorted(deck[1:18:3])
    assert sorted(hands["chausiku"]) == sorted(deck[2:18:3])
    assert list(state.stock) == deck[18:]


# ----- Bidding --------------------------------------------------------------------------------


def test_bidding_starts_left_of_the_dealer_and_the_dealer_bids_last():
    """P7 / PIT-A5: one round, clockwise from the dealer's left."""
    state = table(LOW_CAPTURED)  # dudu deals
    order = []
    for _ in range(4):
        [player] = GAME.to_act(state)
        order.append(player)
        state = ok(state, player, PASS if player != "dudu" else BID(2))
    assert order == ["amina", "baraka", "chausiku", "dudu"]
    assert state.phase == "playing" and GAME.to_act(state) == ["dudu"]


def test_only_pass_and_bids_one_to_four_are_legal():
    """P7: the legal bids are pass, 1, 2, 3 or 4; 5 (without smudge) and 0 are refused."""
    state = table(LOW_CAPTURED)
    assert GAME.legal_actions(state, "amina") == [PASS, BID(1), BID(2), BID(3), BID(4)]
    assert refused(state, "amina", BID(5)) == "bid_out_of_range"
    assert refused(state, "amina", BID(0)) == "bid_out_of_range"


def test_a_bid_must_beat_the_high_bid():
    """PIT-A5: a non-dealer bids strictly higher than the current high bid."""
    state = ok(table(LOW_CAPTURED), "amina", BID(2))
    assert refused(state, "baraka", BID(2)) == "bid_too_low"
    assert refused(state, "baraka", BID(1)) == "bid_too_low"
    assert GAME.legal_actions(state, "baraka") == [PASS, BID(3), BID(4)]


def test_pitching_is_a_bid_of_four_that_ends_the_auction_and_leads():
    """P8 / PIT-A6: a 4 ends the auction at once; nobody after bids; the pitcher's card is the opening lead."""
    state = ok(table(LOW_CAPTURED), "amina", PASS)
    state = ok(state, "baraka", BID(4))
    assert state.phase == "playing" and state.pitcher == 1 and state.bid == 4
    assert GAME.to_act(state) == ["baraka"]
    assert refused(state, "chausiku", PASS) == "not_your_turn"
    assert refused(state, "baraka", PASS) == "auction_over"
    state = ok(state, "baraka", play("7S"))
    assert state.trump == "S"


def test_the_pitchers_first_card_sets_trumps():
    """P9 / PIT-A7: the high bidder leads any card and its suit is trump for the whole hand."""
    state, events = run(table(LOW_CAPTURED), [("amina", BID(1))] + FOUR_PASS, "2C")
    assert state.trump == "C"
    assert [e.public for e in events if e.kind == "trump_set"] == [{"player": "amina", "suit": "C"}]
    assert state.last_hand is None and GAME.to_act(state) == ["baraka"]


def test_dealer_must_bid_at_least_two_when_everyone_passes():
    """P10 / PIT-A12: no pass and no bid of 1 for a dealer everyone passed; there is always a pitcher."""
    state, _ = run(table(LOW_CAPTURED), [("amina", PASS)] + FOUR_PASS[:2])
    assert refused(state, "dudu", PASS) == "dealer_must_bid"
    assert refused(state, "dudu", BID(1)) == "dealer_must_bid"
    assert GAME.legal_actions(state, "dudu") == [BID(2), BID(3), BID(4)]
    state = ok(state, "dudu", BID(2))
    assert state.pitcher == 3 and state.phase == "playing"


def test_dealer_may_steal_the_bid_by_matching_it():
    """P11 / PIT-A5: the dealer may bid the same as a high bid of 1, 2 or 3 and becomes the pitcher."""
    state, events = run(table(LOW_CAPTURED), [("amina", PASS), ("baraka", BID(3)), ("chausiku", PASS)])
    assert BID(3) in GAME.legal_actions(state, "dudu")
    assert refused(state, "dudu", BID(2)) == "bid_too_low"
    state, events = run(state, [("dudu", BID(3))])
    assert state.pitcher == 3 and state.bid == 3
    assert [e.public["steal"] for e in events if e.kind == "bid"] == [True]


def test_a_dealer_who_passes_leaves_the_contract_to_the_high_bidder():
    """P9 / PIT-A5: with a high bid standing the dealer may pass; the high bidder is the pitcher."""
    state, _ = run(table(LOW_CAPTURED), [("amina", BID(2)), ("baraka", BID(3)), ("chausiku", PASS), ("dudu", PASS)])
    assert state.pitcher == 1 and state.bid == 3 and GAME.to_act(state) == ["baraka"]


def test_a_four_cannot_be_stolen():
    """P11 / PIT-A5: after a 4 the dealer never gets to bid."""
    state, _ = run(table(LOW_CAPTURED), [("amina", PASS), ("baraka", PASS), ("chausiku", BID(4))])
    assert refused(state, "dudu", BID(4)) == "not_your_turn"
    assert GAME.legal_actions(state, "dudu") == []


# ----- Play -----------------------------------------------------------------------------------


def test_a_player_may_trump_even_when_able_to_follow_suit():
    """P12 / PIT-A8: to a non-trump lead, a trump is legal even holding the led suit."""
    hands = {
        "amina": ["AH", "2C", "3C", "4C", "5C", "6C"],
        "baraka": ["KH", "7C", "8S", "9S", "7D", "8D"],
        "chausiku": ["QH", "JH", "9C", "2S", "3S", "4S"],
    }
    state, _ = run(table(hands), [("amina", BID(2)), ("baraka", PASS), ("chausiku", PASS)], "AH KH QH 2C")
    assert {a["card"] for a in GAME.legal_actions(state, "baraka")} == {"7C"}
    state = ok(state, "baraka", play("7C"))
    assert {a["card"] for a in GAME.legal_actions(state, "chausiku")} == {"9C", "JH"}
    state, events = run(state, [("chausiku", play("JH"))])
    assert [e.public["player"] for e in events if e.kind == "trick_won"] == ["chausiku"]


def test_a_player_holding_the_led_suit_must_follow_or_trump():
    """P12 / PIT-A8: a discard of a third suit is refused while holding the led suit."""
    hands = {
        "amina": ["AH", "2C", "3C", "4C", "5C", "6C"],
        "baraka": ["KH", "7C", "8S", "9S", "7D", "8D"],
        "chausiku": ["QH", "JH", "9C", "2S", "3S", "4S"],
    }
    state, _ = run(table(hands), [("amina", BID(2)), ("baraka", PASS), ("chausiku", PASS)], "AH KH QH 2C")
    assert refused(state, "baraka", play("8S")) == "must_follow_suit"


def test_a_player_void_in_the_led_suit_may_play_anything():
    """P12 / PIT-A8: without the led suit any card is legal."""
    state, _ = run(table(SWEEP), [("amina", BID(2)), ("baraka", PASS)], "AH 2H KH")
    assert {a["card"] for a in GAME.legal_actions(state, "baraka")} == {"5S", "6S", "7D", "8D", "9D"}


def test_a_trump_lead_must_be_followed_with_a_trump():
    """PIT-A7 / PIT-A8: following suit to the pitcher's trump lead is playing a trump."""
    state, _ = run(table(SWEEP), [("amina", BID(2)), ("baraka", PASS)], "AH")
    assert GAME.legal_actions(state, "baraka") == [play("2H")]
    assert refused(state, "baraka", play("5S")) == "must_follow_suit"


def test_the_highest_trump_wins_the_trick():
    """P13: a trump beats any card of the led suit; the highest trump wins."""
    state, events = run(table(LOW_CAPTURED), [("amina", BID(2))] + FOUR_PASS, first(LOW_CAPTURED_PLAY, 8))
    tricks = [e.public for e in events if e.kind == "trick_won"]
    assert [t["player"] for t in tricks] == ["amina", "chausiku"]  # trick 2: 3H over 2H over the 2C lead


def test_without_trumps_the_highest_card_of_the_led_suit_wins():
    """P13: off-suit discards never win; the highest card of the led suit does."""
    state, events = run(table(LOW_CAPTURED), [("amina", BID(2))] + FOUR_PASS, first(LOW_CAPTURED_PLAY, 12))
    third = [e.public for e in events if e.kind == "trick_won"][2]
    assert third["plays"][0] == {"player": "chausiku", "card": "2S"} and third["player"] == "baraka"


def test_the_winner_of_a_trick_leads_the_next():
    """P14."""
    state, _ = run(table(LOW_CAPTURED), [("amina", BID(2))] + FOUR_PASS, first(LOW_CAPTURED_PLAY, 8))
    assert GAME.to_act(state) == ["chausiku"] and state.leader == 2
    assert refused(state, "dudu", play("2D")) == "not_your_turn"


def test_no_card_outside_the_rules_is_ever_accepted():
    """PIT-A16: the engine enforces legal play, so a revoke cannot happen: exactly the offered cards are accepted."""
    state, _ = run(table(LOW_CAPTURED), [("amina", BID(2))] + FOUR_PASS, "AH 7S")
    offered = {a["card"] for a in GAME.legal_actions(state, "chausiku")}
    assert offered == {"5H", "3H"}
    for card in state.hands[2]:
        result = GAME.apply(state, "chausiku", play(card))
        assert isinstance(result, Applied) == (card in offered)
    assert refused(state, "chausiku", play("AS")) == "not_in_hand"


# ----- Scoring --------------------------------------------------------------------------------


def test_high_goes_to_the_winner_of_the_highest_trump():
    """P15 / PIT-A1."""
    _, events = run(table(SWEEP), [("amina", BID(2)), ("baraka", PASS)], SWEEP_PLAY)
    assert scored(events)["high"] == {"card": "AH", "by": "amina"}


def test_low_goes_to_whoever_captures_the_lowest_trump():
    """P16 / PIT-A2: Low to the capturer; dudu was dealt 2H, chausiku trumped over it and scores Low."""
    _, events = run(table(LOW_CAPTURED), [("amina", BID(2))] + FOUR_PASS, LOW_CAPTURED_PLAY)
    assert scored(events)["low"] == {"card": "2H", "by": "chausiku"}
    assert scored(events)["points"] == {"amina": 2, "baraka": 0, "chausiku": 1, "dudu": 0}


def test_low_to_dealt_gives_low_to_the_player_dealt_it():
    """PIT-A2 table option `low_to: "dealt"`."""
    _, events = run(table(LOW_CAPTURED, low_to="dealt"), [("amina", BID(2))] + FOUR_PASS, LOW_CAPTURED_PLAY)
    assert scored(events)["low"] == {"card": "2H", "by": "dudu"}
    assert scored(events)["points"] == {"amina": 2, "baraka": 0, "chausiku": 0, "dudu": 1}


def test_jack_of_trumps_goes_to_its_capturer():
    """P17: amina captures the JH she leads in trick 3 of the sweep."""
    _, events = run(table(SWEEP), [("amina", BID(2)), ("baraka", PASS)], SWEEP_PLAY)
    assert scored(events)["jack"] == {"card": "JH", "by": "amina"}


def test_game_goes_to_the_most_trick_points():
    """P18 / P19: 10 = 10, A = 4, K = 3, Q = 2, J = 1; baraka's 14 beats amina's 1."""
    _, events = run(table(JACK_ONLY), [("amina", BID(3)), ("baraka", PASS)], JACK_ONLY_PLAY)
    game = scored(events)["game"]
    assert game == {"by": ["baraka"], "trick_points": {"amina": 1, "baraka": 14}}


def test_no_jack_point_when_the_jack_is_not_in_play():
    """P20: JH undealt, so no Jack point."""
    _, events = run(table(NO_COUNT), [("amina", BID(3)), ("baraka", PASS)], NO_COUNT_PLAY)
    assert scored(events)["jack"] is None


def test_a_tie_for_game_awards_no_game_point():
    """P21 / PIT-A10: amina and baraka both take 10 trick points."""
    _, events = run(table(TIED), [("amina", BID(2)), ("baraka", PASS), ("chausiku", PASS)], TIED_PLAY)
    result = scored(events)
    assert result["game"] == {"by": [], "trick_points": {"amina": 10, "baraka": 10, "chausiku": 0}}
    assert result["points"] == {"amina": 2, "baraka": 0, "chausiku": 0}


def test_all_players_at_zero_trick_points_is_a_tie():
    """PIT-A10: zero for everyone is a tie for the most: no Game point."""
    _, events = run(table(NO_COUNT), [("amina", BID(3)), ("baraka", PASS)], NO_COUNT_PLAY)
    assert scored(events)["game"]["by"] == []


def test_a_single_trump_in_play_counts_as_high_and_low():
    """P22 / PIT-A4: 2H alone in play gives its capturer 2 points."""
    _, events = run(table(TIED), [("amina", BID(2)), ("baraka", PASS), ("chausiku", PASS)], TIED_PLAY)
    result = scored(events)
    assert result["high"] == result["low"] == {"card": "2H", "by": "amina"}


def test_the_jack_as_only_trump_counts_three():
    """P22 / PIT-A4: JH alone in play: High, Low and Jack to amina (Game independently to baraka)."""
    _, events = run(table(JACK_ONLY), [("amina", BID(3)), ("baraka", PASS)], JACK_ONLY_PLAY)
    result = scored(events)
    assert result["high"] == result["low"] == result["jack"] == {"card": "JH", "by": "amina"}
    assert result["points"] == {"amina": 3, "baraka": 1}


def test_undealt_cards_are_not_in_play():
    """PIT-A3: AH, KH… are in the stock; the highest dealt trump, 9H, is High."""
    _, events = run(table(NO_COUNT), [("amina", BID(3)), ("baraka", PASS)], NO_COUNT_PLAY)
    result = scored(events)
    assert result["high"]["card"] == "9H" and result["low"]["card"] == "2H"


def test_a_pitcher_who_makes_the_bid_scores_everything_won():
    """P23 / PIT-A9: bid 2, won 4: +4."""
    state, events = run(table(SWEEP), [("amina", BID(2)), ("baraka", PASS)], SWEEP_PLAY)
    assert scored(events)["made"] is True
    assert GAME.scores(state) == {"amina": 4, "baraka": 0}


def test_a_pitcher_who_fails_is_set_back_by_the_bid():
    """P23 / PIT-A9: bid 3, won 2: minus 3, nothing added; scores may go negative."""
    state, events = run(table(NO_COUNT), [("amina", BID(3)), ("baraka", PASS)], NO_COUNT_PLAY)
    result = scored(events)
    assert result["made"] is False and result["points"]["amina"] == 2
    assert GAME.scores(state) == {"amina": -3, "baraka": 0}


def test_making_the_bid_counts_only_the_pitchers_own_points():
    """PIT-A9: amina bids 3 and wins High only (Low to chausiku): set back though 3 points went to others."""
    _, events = run(table(LOW_CAPTURED), [("amina", BID(3))] + FOUR_PASS, LOW_CAPTURED_PLAY)
    result = scored(events)
    assert result["points"]["amina"] == 2 and result["made"] is False
    assert result["change"] == {"amina": -3, "baraka": 0, "chausiku": 1, "dudu": 0}


def test_other_players_score_what_they_won():
    """P24: baraka, not the pitcher, scores his Game point."""
    state, _ = run(table(JACK_ONLY), [("amina", BID(3)), ("baraka", PASS)], JACK_ONLY_PLAY)
    assert GAME.scores(state) == {"amina": 3, "baraka": 1}


def test_the_player_left_of_the_dealer_deals_next():
    """P26 / PIT-A13: hand 2 is dealt by the dealer's left neighbour, and its auction opens at their left."""
    state, events = run(table(SWEEP), [("amina", BID(2)), ("baraka", PASS)], SWEEP_PLAY)
    assert state.hand_number == 2 and GAME.view(state, None)["dealer"] == "amina"
    assert GAME.to_act(state) == ["baraka"]
    assert [e.public["hand"] for e in events if e.kind == "dealt"] == [2]


def test_the_first_dealer_is_drawn_from_the_seed():
    """PIT-A13: a random first dealer, the same for the same seed."""
    state = GAME.new(FOUR, PitchOptions(), seed=42)
    assert state.dealer == FOUR.index(rng_for(42, "dealer").choice(FOUR))
    assert {GAME.new(FOUR, PitchOptions(), seed=s).dealer for s in range(40)} == {0, 1, 2, 3}


# ----- Winning --------------------------------------------------------------------------------


def test_a_pitcher_reaching_the_target_wins():
    """P27 / PIT-A11: amina at 5 makes 4 as pitcher: 9 >= 7, match over."""
    state, events = run(table(SWEEP, scores={"amina": 5}), [("amina", BID(2)), ("baraka", PASS)], SWEEP_PLAY)
    assert GAME.is_finished(state) and GAME.winners(state) == ["amina"] and GAME.to_act(state) == []
    assert [e.public for e in events if e.kind == "match_won"] == [
        {"winners": ["amina"], "scores": {"amina": 9, "baraka": 0}}
    ]
    assert refused(state, "baraka", PASS) == "match_over"


def test_only_the_pitcher_can_win():
    """P27 / PIT-A11: baraka reaches 7 on amina's hand and play goes on."""
    state, _ = run(table(JACK_ONLY, scores={"baraka": 6}), [("amina", BID(3)), ("baraka", PASS)], JACK_ONLY_PLAY)
    assert GAME.scores(state)["baraka"] == 7
    assert not GAME.is_finished(state) and state.hand_number == 2


def test_the_pitcher_may_win_with_fewer_points_than_another_player():
    """P28: amina reaches 8 while baraka has 21."""
    start = {"amina": 5, "baraka": 20}
    state, _ = run(table(JACK_ONLY, scores=start), [("amina", BID(3)), ("baraka", PASS)], JACK_ONLY_PLAY)
    assert GAME.scores(state) == {"amina": 8, "baraka": 21} and GAME.winners(state) == ["amina"]


def test_a_set_back_pitcher_still_at_the_target_wins():
    """PIT-A11 literal reading: amina enters at 10, fails a bid of 3, ends at 7 and wins."""
    state, _ = run(table(NO_COUNT, scores={"amina": 10}), [("amina", BID(3)), ("baraka", PASS)], NO_COUNT_PLAY)
    assert GAME.scores(state)["amina"] == 7 and GAME.winners(state) == ["amina"]


# ----- Partnerships ---------------------------------------------------------------------------


def test_partners_pool_their_points_to_make_the_bid():
    """PIT-A14: amina (High, Game) and partner chausiku (Low) make amina's 3 together; both show the team total."""
    state, events = run(table(LOW_CAPTURED, partnerships=True), [("amina", BID(3))] + FOUR_PASS, LOW_CAPTURED_PLAY)
    result = scored(events)
    assert result["made"] is True and result["game"]["by"] == ["amina", "chausiku"]
    assert GAME.scores(state) == {"amina": 3, "baraka": 0, "chausiku": 3, "dudu": 0}


def test_the_dealer_cannot_steal_from_a_partner():
    """PIT-A14 / section 8: dudu may not match partner baraka's bid, but may match an opponent's."""
    state, _ = run(table(LOW_CAPTURED, partnerships=True), [("amina", PASS), ("baraka", BID(2)), ("chausiku", PASS)])
    assert refused(state, "dudu", BID(2)) == "cannot_steal_from_partner"
    assert GAME.legal_actions(state, "dudu") == [PASS, BID(3), BID(4)]
    state, _ = run(table(LOW_CAPTURED, partnerships=True), [("amina", BID(2)), ("baraka", PASS), ("chausiku", PASS)])
    assert ok(state, "dudu", BID(2)).pitcher == 3


def test_partnerships_need_four_players_sitting_opposite():
    """PIT-A14: two teams of two, partners opposite (seats 0 and 2, 1 and 3)."""
    assert GAME.player_count_problem(THREE, PitchOptions(partnerships=True))
    view = GAME.view(table(LOW_CAPTURED, partnerships=True), "amina")
    assert view["teams"] == [["amina", "chausiku"], ["baraka", "dudu"]]


def test_only_the_pitching_team_can_win():
    """PIT-A14 / section 8: the opponents reaching the target on amina's hand do not win."""
    state, _ = run(
        table(LOW_CAPTURED, partnerships=True, scores={"baraka": 7}), [("amina", BID(2))] + FOUR_PASS, LOW_CAPTURED_PLAY
    )
    assert not GAME.is_finished(state)
    state, _ = run(
        table(LOW_CAPTURED, partnerships=True, scores={"amina": 4}), [("amina", BID(2))] + FOUR_PASS, LOW_CAPTURED_PLAY
    )
    assert GAME.winners(state) == ["amina", "chausiku"]


# ----- Table options (section 6) --------------------------------------------------------------


def test_option_names_and_defaults_are_those_of_section_6():
    """Section 6: target 7, low_to capturer, win_condition pitcher_at_target, min_bid 1, smudge off,
    dealer_steal on, partnerships off; unknown names and wrong values are rejected."""
    assert PitchOptions().model_dump() == {
        "target": 7,
        "low_to": "capturer",
        "win_condition": "pitcher_at_target",
        "min_bid": 1,
        "smudge": False,
        "dealer_steal": True,
        "partnerships": False,
    }
    for bad in ({"target": 8}, {"min_bid": 3}, {"low_to": "holder"}, {"trumps": True}, {"smudge": "yes"}):
        with pytest.raises(ValueError):
            PitchOptions(**bad)


def test_target_eleven_is_not_reached_at_nine():
    """P27 / option `target`: amina makes 4 from 5 = 9: enough for 7, not for 11."""
    state, _ = run(table(SWEEP, scores={"amina": 5}, target=11), [("amina", BID(2)), ("baraka", PASS)], SWEEP_PLAY)
    assert not GAME.is_finished(state) and GAME.view(state, None)["target"] == 11


def test_pitcher_made_bid_requires_making_the_bid_to_win():
    """PIT-A11 option `win_condition: "pitcher_made_bid"`: amina at 10 fails her 3 and ends at 7 without winning."""
    start = {"amina": 10}
    state, _ = run(
        table(NO_COUNT, scores=start, win_condition="pitcher_made_bid"),
        [("amina", BID(3)), ("baraka", PASS)],
        NO_COUNT_PLAY,
    )
    assert GAME.scores(state)["amina"] == 7 and not GAME.is_finished(state)
    state, _ = run(
        table(SWEEP, scores={"amina": 5}, win_condition="pitcher_made_bid"),
        [("amina", BID(2)), ("baraka", PASS)],
        SWEEP_PLAY,
    )
    assert GAME.winners(state) == ["amina"]


def test_anyone_lets_a_non_pitcher_at_the_target_win():
    """Section 8 `win_condition: "anyone"`: baraka reaches 7 on amina's hand and wins."""
    start = {"baraka": 6}
    state, _ = run(
        table(JACK_ONLY, scores=start, win_condition="anyone"), [("amina", BID(3)), ("baraka", PASS)], JACK_ONLY_PLAY
    )
    assert GAME.winners(state) == ["baraka"]


def test_anyone_counts_the_pitcher_first():
    """Section 8: the pitcher at the target wins even when another player has more."""
    start = {"amina": 5, "baraka": 20}
    state, _ = run(
        table(JACK_ONLY, scores=start, win_condition="anyone"), [("amina", BID(3)), ("baraka", PASS)], JACK_ONLY_PLAY
    )
    assert GAME.winners(state) == ["amina"]


def test_anyone_shares_an_exact_tie():
    """Section 8: baraka and chausiku both at 7, pitcher amina short: a shared win."""
    start = {"baraka": 7, "chausiku": 7}
    state, _ = run(
        table(TIED, scores=start, win_condition="anyone"),
        [("amina", BID(2)), ("baraka", PASS), ("chausiku", PASS)],
        TIED_PLAY,
    )
    assert GAME.winners(state) == ["baraka", "chausiku"]


def test_min_bid_two_refuses_a_bid_of_one():
    """Option `min_bid: 2` (pagat)."""
    state = table(LOW_CAPTURED, min_bid=2)
    assert refused(state, "amina", BID(1)) == "bid_below_minimum"
    assert GAME.legal_actions(state, "amina") == [PASS, BID(2), BID(3), BID(4)]


def test_a_made_smudge_wins_at_once():
    """Option `smudge`: a 5 ends the auction; taking all six tricks wins the match whatever the scores."""
    state = table(SWEEP, smudge=True)
    assert GAME.legal_actions(state, "amina")[-1] == BID(5)
    state, events = run(state, [("amina", BID(5))], SWEEP_PLAY)
    assert [e.public for e in events if e.kind == "auction_won"] == [{"pitcher": "amina", "bid": 5, "smudge": True}]
    assert GAME.winners(state) == ["amina"] and GAME.scores(state) == {"amina": 4, "baraka": 0}


def test_a_failed_smudge_sets_back_five():
    """Option `smudge`: amina loses tricks: minus 5; baraka scores his Game point."""
    state, _ = run(table(JACK_ONLY, smudge=True), [("amina", BID(5))], JACK_ONLY_PLAY)
    assert GAME.scores(state) == {"amina": -5, "baraka": 1} and not GAME.is_finished(state)


def test_smudge_is_refused_when_the_table_has_none():
    """Section 6: without the option a 5 is out of range."""
    assert refused(table(SWEEP), "amina", BID(5)) == "bid_out_of_range"


def test_dealer_steal_off_makes_the_dealer_outbid():
    """Option `dealer_steal: false` (P11 disabled)."""
    state, _ = run(table(LOW_CAPTURED, dealer_steal=False), [("amina", BID(2)), ("baraka", PASS), ("chausiku", PASS)])
    assert refused(state, "dudu", BID(2)) == "steal_not_allowed"
    assert GAME.legal_actions(state, "dudu") == [PASS, BID(3), BID(4)]


# ----- Actions (section 7) and refusals -------------------------------------------------------


def test_timeout_in_the_auction_is_a_pass():
    """Section 7: the clock passes for a bidder."""
    state = table(LOW_CAPTURED)
    result = GAME.apply(state, CLOCK, {"type": "timeout"})
    assert [e.kind for e in result.events] == ["timed_out", "passed"]
    assert result.state.bids == ((0, 0),) and GAME.to_act(result.state) == ["baraka"]


def test_timeout_for_a_forced_dealer_bids_the_minimum():
    """Section 7: a dealer everyone passed is bid 2 by the clock, and leads."""
    state, _ = run(table(LOW_CAPTURED), [("amina", PASS)] + FOUR_PASS[:2])
    state = ok(state, CLOCK, {"type": "timeout"})
    assert state.pitcher == 3 and state.bid == 2


def test_timeout_opening_lead_is_the_lowest_rank_then_suit_order():
    """Section 8: no trump yet, so the lowest rank, S before H before D before C."""
    hands = {"amina": ["2C", "2S", "3H", "AH", "KD", "QS"], "baraka": ["3C", "4C", "5C", "6C", "7C", "8C"]}
    state, _ = run(table(hands), [("amina", BID(2)), ("baraka", PASS)])
    state = ok(state, CLOCK, {"type": "timeout"})
    assert state.trick == ("2S",) and state.trump == "S"


def test_timeout_plays_the_lowest_non_trump_first():
    """Section 8: to a non-trump lead baraka may follow or trump; the clock plays the lowest non-trump."""
    hands = {"amina": ["AH", "2C", "3C", "4C", "5C", "6C"], "baraka": ["2H", "KC", "9C", "8S", "7D", "8D"]}
    state, _ = run(table(hands), [("amina", BID(2)), ("baraka", PASS)], "AH 2H 2C")
    state = ok(state, CLOCK, {"type": "timeout"})
    assert state.last_trick[1] == ("2C", "9C")


def test_timeout_follows_a_trump_lead_with_the_lowest_trump():
    """Section 8: when only trumps are legal, the lowest of them."""
    hands = {"amina": ["AH", "2C", "3C", "4C", "5C", "6C"], "baraka": ["KH", "3H", "2S", "8S", "7D", "8D"]}
    state, _ = run(table(hands), [("amina", BID(2)), ("baraka", PASS)], "AH")
    state = ok(state, CLOCK, {"type": "timeout"})
    assert state.last_trick[1] == ("AH", "3H")


def test_playing_during_the_auction_is_refused():
    """Section 7: play only after the auction; the bidder in turn is told to bid or pass."""
    state = table(LOW_CAPTURED)
    assert refused(state, "amina", play("AH")) == "bidding_in_progress"
    assert refused(state, "baraka", BID(2)) == "not_your_turn"


def test_a_refused_action_changes_nothing():
    """Protocol: a refusal leaves the state exactly as it was."""
    state, _ = run(table(SWEEP), [("amina", BID(2)), ("baraka", PASS)], "AH")
    before = GAME.dump(state)
    for player, action in [("baraka", play("5S")), ("amina", play("KH")), ("baraka", BID(3)), ("baraka", play("AS"))]:
        refused(state, player, action)
    assert GAME.dump(state) == before
