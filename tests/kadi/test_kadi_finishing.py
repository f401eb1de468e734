"""The "Kadi Moja!" call, winning, finishing on a power card, and the turn timer (K6, KAD-A16..A18)."""

from __future__ import annotations

from engine.core.protocol import CLOCK
from engine.kadi import GAME
from tests.kadi.test_kadi_helpers import (
    CALL,
    DRAW,
    PASS,
    TIMEOUT,
    TWO,
    act,
    event,
    kinds,
    new_game,
    play,
    refused,
)

NINES = ["9S", "9D", "9C", "9H"]
BARAKA_PLAIN = ["3S", "4S", "6D", "10C", "KS"]
CHAUSIKU_PLAIN = ["3D", "4D", "6C", "10D", "KD"]


def one_card_left(last: str = "4H", call: bool = False, **options):
    """amina plays four nines on 5S and keeps `last`; baraka and chausiku cannot follow a nine of hearts."""
    state = new_game(
        hands={"amina": [*NINES, last], "baraka": BARAKA_PLAIN, "chausiku": CHAUSIKU_PLAIN},
        start="5S",
        stock=["3C", "QC", "AC", "5C"],
        **options,
    )
    state, events = act(state, "amina", play("9S", "9D", "9C", "9H", **({"call": True} if call else {})))
    return state, events


def test_calling_kadi_moja_with_one_card_left_avoids_the_penalty():
    """K6.1, KAD-A16: a player down to one card calls before the next player's turn: no penalty."""
    state, events = one_card_left(call=True)
    assert "called" in kinds(events)
    assert GAME.view(state, "baraka")["call_due"] is None
    state, events = act(state, "baraka", DRAW)
    assert "missed_call" not in kinds(events)
    assert state.hands["amina"] == ["4H"]


def test_a_missed_call_is_penalised_by_the_engine_when_the_next_player_acts():
    """K6.2, K6.3, KAD-A16, section 8: the penalty is drawn first, as an event everyone sees."""
    state, _ = one_card_left()
    assert GAME.view(state, "chausiku")["call_due"] == "amina"
    assert {"type": "call"} in GAME.legal_actions(state, "amina")
    state, events = act(state, "baraka", DRAW)
    assert kinds(events)[:2] == ["missed_call", "drew"]
    missed = event(events, "missed_call")
    assert missed.view("chausiku") == {"kind": "missed_call", "player": "amina", "count": 2}
    assert missed.view("amina")["cards"] == ["3C", "QC"]
    assert len(state.hands["amina"]) == 3


def test_the_call_may_follow_the_play_until_the_next_players_first_action():
    """K6.1, KAD-A16: the window stays open after the play; a separate call closes the duty."""
    state, _ = one_card_left()
    state, events = act(state, "amina", CALL)
    assert kinds(events) == ["called"]
    state, events = act(state, "baraka", DRAW)
    assert "missed_call" not in kinds(events)


def test_a_call_when_none_is_due_is_refused():
    """Section 8: a call when none is due is refused with no_call_due."""
    state, _ = one_card_left(call=True)
    assert refused(state, "amina", CALL) == "no_call_due"
    assert refused(state, "baraka", CALL) == "no_call_due"
    state = new_game(hands={"amina": ["9S"]}, start="9H")
    state, events = act(state, "amina", play("9S", call=True))
    assert "called" not in kinds(events)  # four cards left: the call is ignored


def test_missed_call_penalty_table_option():
    """KAD-A16 table option missed_call_penalty (1-5)."""
    state, _ = one_card_left(missed_call_penalty=4)
    state, events = act(state, "baraka", DRAW)
    assert event(events, "missed_call").public["count"] == 4


def test_the_turn_timer_closes_the_call_window_penalty_first():
    """Section 8: a timeout is an action at the table: the missed-call penalty comes first."""
    state, _ = one_card_left()
    state, events = act(state, CLOCK, TIMEOUT)
    assert kinds(events)[:2] == ["missed_call", "drew"]


def test_the_callers_own_next_action_closes_the_window_after_skips():
    """Section 8, KAD-A13/A16: after skips the caller may act next; acting without the call costs the penalty."""
    state = new_game(
        TWO,
        hands={"amina": ["9S", "7S", "7D", "7C", "4C"], "baraka": ["3D", "4D", "6D", "10C", "KC"]},
        start="5S",
        stock=["QH"],
    )
    state, _ = act(state, "amina", play("9S"))
    state, _ = act(state, "baraka", DRAW)
    state, _ = act(state, "amina", play("7S", "7D", "7C"))
    assert GAME.to_act(state) == ["amina"] and state.hands["amina"] == ["4C"]
    state, events = act(state, "amina", play("4C"))
    assert kinds(events)[:2] == ["missed_call", "played"]
    assert "won" not in kinds(events)
    assert len(state.hands["amina"]) == 2


def test_playing_the_last_ordinary_card_after_a_clean_call_wins_the_round():
    """K6.4, K6.5, K6.7, KAD-A17: the last card is ordinary and the call was clean: the round is won."""
    state, _ = one_card_left(call=True)
    state, _ = act(state, "baraka", DRAW)
    state, _ = act(state, "chausiku", DRAW)
    state, events = act(state, "amina", play("4H"))
    assert kinds(events)[:3] == ["played", "won", "round_scored"]
    scored = event(events, "round_scored").public
    assert scored["winner"] == "amina" and scored["points"]["amina"] == 0
    assert state.round == 2


def test_going_out_with_several_ordinary_cards_needs_no_call():
    """KAD-A17: going out from two or more cards with one multi-card play needs no call."""
    state = new_game(
        hands={"amina": ["AS", *NINES], "baraka": BARAKA_PLAIN, "chausiku": CHAUSIKU_PLAIN},
        start="5S",
        stock=["3C", "QC"],
    )
    state, _ = act(state, "amina", play("AS"))
    state, _ = act(state, "baraka", play("3S"))
    state, _ = act(state, "chausiku", play("3D"))
    state, events = act(state, "amina", play("9D", "9S", "9C", "9H"))
    assert "won" in kinds(events)


def test_a_power_card_as_last_card_applies_but_does_not_win_and_draws_one():
    """K6.4, K6.5, K6.6, KAD-A18: the effect applies (skip), no win, draw one, then call Kadi Moja."""
    state, _ = one_card_left(last="7H", call=True)
    state, _ = act(state, "baraka", DRAW)
    state, _ = act(state, "chausiku", DRAW)
    actions = GAME.legal_actions(state, "amina")
    assert play("7H", call=True) in actions and play("7H") in actions
    state, events = act(state, "amina", play("7H"))
    assert "won" not in kinds(events)
    drawn = event(events, "power_finish_draw")
    assert drawn.public == {"player": "amina", "count": 1}
    assert drawn.view("amina")["cards"] == ["AC"]
    assert state.hands["amina"] == ["AC"]
    assert GAME.to_act(state) == ["chausiku"]  # baraka was skipped
    assert GAME.view(state, None)["call_due"] == "amina"


def test_power_finish_forbidden_option_makes_the_player_draw_instead():
    """KAD-A18 table option power_finish = forbidden: a power card may not be the last card."""
    state, _ = one_card_left(last="7H", call=True, power_finish="forbidden")
    state, _ = act(state, "baraka", DRAW)
    state, _ = act(state, "chausiku", DRAW)
    assert refused(state, "amina", play("7H")) == "power_finish_forbidden"
    assert GAME.legal_actions(state, "amina") == [DRAW]


def test_niko_kadi_ahead_option_requires_an_announcement_the_turn_before():
    """KAD-A17 table option niko_kadi_ahead: going out needs a call made at the end of the previous turn."""
    hands = {"amina": ["AS", *NINES], "baraka": BARAKA_PLAIN, "chausiku": CHAUSIKU_PLAIN}

    def to_amina_again(first_play):
        state = new_game(hands=hands, start="5S", stock=["3C", "QC"], niko_kadi_ahead=True)
        state, _ = act(state, "amina", first_play)
        state, _ = act(state, "baraka", play("3S"))
        state, _ = act(state, "chausiku", play("3D"))
        return state

    silent = to_amina_again(play("AS"))
    assert refused(silent, "amina", play("9D", "9S", "9C", "9H")) == "not_announced"
    announced = to_amina_again(play("AS", call=True))
    state, events = act(announced, "amina", play("9D", "9S", "9C", "9H"))
    assert "won" in kinds(events)


def test_the_timer_draws_even_with_a_legal_play_and_keeps_the_card():
    """Section 7 timeout, section 8: draw one (even with a legal play), keep it, turn ends."""
    state = new_game(hands={"amina": ["9S"]}, start="9H", stock=["4H"])
    assert GAME.legal_actions(state, CLOCK) == [TIMEOUT]
    state, events = act(state, CLOCK, TIMEOUT)
    assert event(events, "drew").public == {"player": "amina", "count": 1, "timeout": True}
    assert "4H" in state.hands["amina"] and GAME.to_act(state) == ["baraka"]


def test_the_timer_takes_a_pending_penalty():
    """Section 7 timeout: take the penalty."""
    state = new_game(hands={"amina": ["2H"], "baraka": ["2S"]}, start="9H")
    state, _ = act(state, "amina", play("2H"))
    state, events = act(state, CLOCK, TIMEOUT)
    assert event(events, "penalty_drawn").public["player"] == "baraka"
    assert GAME.to_act(state) == ["chausiku"]


def test_the_timer_after_a_playable_draw_keeps_the_card():
    """Section 7 timeout: after drawing a playable card, time out = keep it (pass)."""
    state = new_game(hands={"amina": ["3C", "4C", "5C", "6C", "10S"]}, start="9H", stock=["KH"])
    state, _ = act(state, "amina", DRAW)
    state, events = act(state, CLOCK, TIMEOUT)
    assert kinds(events) == ["passed"]
    assert GAME.to_act(state) == ["baraka"] and "KH" in state.hands["amina"]
    assert refused(state, CLOCK, PASS) == "clock_only_times_out"
