"""Hiding mode: consent, hiding, accusations, provisional wins (K9, KAD-A22..A26)."""

from __future__ import annotations

from engine.core.protocol import CLOCK
from engine.kadi import GAME
from tests.kadi.test_kadi_helpers import CALL, DRAW, TIMEOUT, act, event, kinds, new_game, play, refused

BARAKA = ["3S", "4S", "6D", "10C", "KS"]
CHAUSIKU = ["3D", "4D", "6C", "10D", "KD"]
NINES = ["9S", "9D", "9C", "9H"]


def hide(card):
    return {"type": "hide", "card": card}


def accuse(target):
    return {"type": "accuse", "target": target}


ACCEPT = {"type": "accept"}
UNHIDE = {"type": "unhide"}


def table(**options):
    options.setdefault("hiding", True)
    return new_game(
        hands={"amina": [*NINES, "4H"], "baraka": BARAKA, "chausiku": CHAUSIKU},
        start="5S",
        stock=["3C", "QC", "AC", "5C", "6S", "7S", "8S"],
        **options,
    )


def test_hiding_and_accusing_need_the_hiding_option():
    """K9.1, K9.7, KAD-A22: hiding mode is opt-in (the table option set after unanimous consent)."""
    state = table(hiding=False)
    assert refused(state, "amina", hide("4H")) == "hiding_off"
    assert refused(state, "baraka", accuse("amina")) == "hiding_off"
    assert not any(a["type"] in ("hide", "accuse") for a in GAME.legal_actions(state, "amina"))


def test_a_hidden_card_leaves_the_shown_count_and_does_not_exist_for_play():
    """K9.2, KAD-A23: hide one card on your turn; it is not counted, not playable, not for legality."""
    state = table()
    assert hide("4H") in GAME.legal_actions(state, "amina")
    state, events = act(state, "amina", hide("4H"))
    assert event(events, "hid").view("baraka") == {"kind": "hid", "player": "amina", "left": 4}
    assert event(events, "hid").view("amina")["card"] == "4H"
    assert GAME.view(state, "baraka")["counts"]["amina"] == 4
    assert GAME.view(state, "amina")["hidden"] == "4H"
    assert "hidden" not in GAME.view(state, None)
    assert refused(state, "amina", play("4H")) == "card_hidden"
    assert refused(state, "amina", hide("9S")) == "hide_used"  # one hide or unhide per turn
    assert "4H" in GAME.replay_hands(state)["amina"]  # section 8: a replay shows the hidden card


def test_hiding_only_on_your_own_turn_before_acting():
    """KAD-A23: hide or unhide on your own turn, before acting; keep two visible cards (engine decision)."""
    state = table()
    assert refused(state, "baraka", hide("3S")) == "not_your_turn"
    state = new_game(hands={"amina": ["3C", "4C", "5C", "6C", "10S"]}, start="9H", stock=["KH"], hiding=True)
    state, _ = act(state, "amina", DRAW)
    assert refused(state, "amina", hide("3C")) == "not_before_acting"


def test_unhide_only_on_a_later_turn():
    """KAD-A23: a hidden card may be taken back at the start of a later turn of one's own."""
    state = table()
    state, _ = act(state, "amina", hide("4H"))
    assert refused(state, "amina", UNHIDE) == "hide_used"
    state, _ = act(state, "amina", play("9S"))
    state, _ = act(state, "baraka", play("3S"))
    state, _ = act(state, "chausiku", play("3D"))
    assert refused(state, "amina", hide("9D")) == "already_hiding"
    state, events = act(state, "amina", UNHIDE)
    assert kinds(events) == ["unhid"] and "4H" in state.hands["amina"]


def test_caught_hiding_returns_the_card_and_draws_the_heavy_penalty():
    """K9.3, K9.4, K9.6, KAD-A24: a correct accusation: hidden card back plus 5 cards; turn unchanged."""
    state = table()
    state, _ = act(state, "amina", hide("4H"))
    state, _ = act(state, "amina", play("9S"))
    state, events = act(state, "chausiku", accuse("amina"))
    accused = event(events, "accused")
    assert accused.view("baraka") == {
        "kind": "accused", "accuser": "chausiku", "target": "amina", "caught": True, "payer": "amina", "count": 5,
    }  # fmt: skip
    assert accused.view("amina")["returned"] == "4H"
    assert state.hidden["amina"] is None and len(state.hands["amina"]) == 4 + 5
    assert GAME.to_act(state) == ["baraka"]


def test_a_false_accusation_makes_the_accuser_pay():
    """K9.5, KAD-A24: accusing a player who hides nothing costs the accuser the penalty."""
    state = table()
    state, events = act(state, "chausiku", accuse("baraka"))
    assert event(events, "accused").public["payer"] == "chausiku"
    assert len(state.hands["chausiku"]) == 10 and GAME.to_act(state) == ["amina"]
    assert refused(state, "chausiku", accuse("chausiku")) == "cannot_accuse_self"
    assert refused(state, "chausiku", accuse("zawadi")) == "target_not_seated"


def test_hiding_penalty_option():
    """Section 6 hiding_penalty (3-7)."""
    state = table(hiding_penalty=3)
    state, events = act(state, "baraka", accuse("amina"))
    assert event(events, "accused").public["count"] == 3


def test_an_accusation_does_not_close_the_call_window():
    """Section 8: the Kadi Moja window closes at the next action other than a call or an accusation."""
    state = table()
    state, _ = act(state, "amina", play(*NINES))
    state, events = act(state, "chausiku", accuse("baraka"))
    assert "missed_call" not in kinds(events)
    state, events = act(state, "amina", CALL)
    assert kinds(events) == ["called"]


def test_a_win_while_hiding_is_provisional_until_everyone_accepts():
    """KAD-A25: visible hand empty with a hidden card: provisional win; accepted by all, it stands."""
    state = table()
    state, _ = act(state, "amina", hide("4H"))
    state, events = act(state, "amina", play(*NINES))
    assert "provisional_win" in kinds(events) and "won" not in kinds(events)
    assert GAME.to_act(state) == ["baraka", "chausiku"]
    assert refused(state, "amina", ACCEPT) == "not_waiting_for_you"
    assert refused(state, "baraka", DRAW) == "challenge_open"
    state, _ = act(state, "baraka", ACCEPT)
    assert GAME.to_act(state) == ["chausiku"]
    state, events = act(state, "chausiku", ACCEPT)
    scored = event(events, "round_scored").public
    assert scored["winner"] == "amina" and scored["points"]["amina"] == 0
    assert state.round == 2


def test_an_accusation_voids_a_provisional_win_even_after_accepting():
    """KAD-A25, section 8: a correct accusation voids the win; the hider takes the card back plus the penalty."""
    state = table()
    state, _ = act(state, "amina", hide("4H"))
    state, _ = act(state, "amina", play(*NINES))
    state, _ = act(state, "baraka", ACCEPT)
    state, events = act(state, "baraka", accuse("amina"))
    assert "win_voided" in kinds(events)
    assert sorted(state.hands["amina"]) == sorted(["4H", "3C", "QC", "AC", "5C", "6S"])
    assert GAME.to_act(state) == ["baraka"] and state.phase == "play"


def test_the_timer_closes_the_challenge_window_and_the_win_stands():
    """Section 7: timeout during the challenge window: the win stands; the hidden card is discarded."""
    state = table()
    state, _ = act(state, "amina", hide("4H"))
    state, _ = act(state, "amina", play(*NINES))
    state, events = act(state, CLOCK, TIMEOUT)
    assert kinds(events)[:2] == ["won", "round_scored"]
    assert event(events, "round_scored").public["hands"]["amina"] == []


def test_hidden_cards_of_the_other_players_are_scored_at_round_end():
    """KAD-A26: a loser's hidden card is revealed and scored with the hand."""
    state = new_game(hands={"amina": ["AS", *NINES], "baraka": BARAKA, "chausiku": CHAUSIKU}, start="5S", hiding=True)
    state, _ = act(state, "amina", play("AS"))
    state, _ = act(state, "baraka", hide("KS"))
    state, _ = act(state, "baraka", play("3S"))
    state, _ = act(state, "chausiku", play("3D"))
    state, events = act(state, "amina", play("9D", "9S", "9C", "9H"))
    scored = event(events, "round_scored").public
    assert sorted(scored["hands"]["baraka"]) == sorted(["4S", "6D", "10C", "KS"])
    assert scored["points"]["baraka"] == 4 + 6 + 10 + 4


def test_hiding_one_of_two_jokers_keeps_the_other_visible():
    """KAD-A23: exactly one card is hidden, even when the hand holds its twin."""
    state = new_game(hands={"amina": ["X", "X", "3C", "4C", "5C"]}, start="9H", hiding=True)
    state, _ = act(state, "amina", hide("X"))
    assert state.hands["amina"].count("X") == 1 and state.hidden["amina"] == "X"
