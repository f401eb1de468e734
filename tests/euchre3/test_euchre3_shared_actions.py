"""The speed-ups keep the rules: shared legal-action lists stay untouched, and every form of
`keep` gets the same answer from `advance` and `apply`."""

from __future__ import annotations

import copy
import random

from engine.core.protocol import CLOCK, Applied, Refused
from engine.euchre3 import GAME

from .test_euchre3_helpers import A, B, build_deck, new_game, step

PLAYERS = ("amina", "baraka", "chausiku")


def test_shared_legal_actions_are_never_changed():
    """legal_actions hands out shared lists and dicts (one per card, one per phase): however the
    moves then go, through `apply` or `advance`, none of them is ever changed."""
    rng = random.Random(11)
    seen = []
    for seed in range(30):
        state = GAME.new(PLAYERS, GAME.Options(deck=32 if seed % 2 else 24), seed)
        while not GAME.is_finished(state):
            (player,) = GAME.to_act(state)
            actions = GAME.legal_actions(state, player)
            seen.append((actions, copy.deepcopy(actions)))
            if rng.random() < 0.05:
                player, action = CLOCK, {"type": "timeout"}
            else:
                action = rng.choice(actions)
            step_ = GAME.apply if seed % 3 == 0 else GAME.advance
            state = step_(state, player, action).state
    for actions, snapshot in seen:
        assert actions == snapshot


KEEP_FORMS = {
    "pool order": (["JH", "JD", "AH", "KH", "QH"], None),
    "any order": (["QH", "KH", "AH", "JD", "JH"], None),
    "a tuple": (("JH", "JD", "AH", "KH", "QH"), None),
    "lower case": (["jh", "jd", "ah", "kh", "qh"], None),
    "four cards": (["JH", "JD", "AH", "KH"], "wrong_keep_size"),
    "six cards": (["JH", "JD", "AH", "KH", "QH", "9S"], "wrong_keep_size"),
    "a string": ("JHJDA", "wrong_keep_size"),
    "a dict": ({"JH": 1, "JD": 1, "AH": 1, "KH": 1, "QH": 1}, "wrong_keep_size"),
    "a duplicate": (["JH", "JD", "AH", "KH", "JH"], "duplicate_card"),
    "numbers": ([1, 2, 3, 4, 5], "not_a_card"),
    "a nested list": ([["JH"], "JD", "AH", "KH", "QH"], "not_a_card"),
    "None": (["JH", "JD", "AH", "KH", None], "not_a_card"),
    "not held": (["JH", "JD", "AH", "KH", "QS"], "not_in_hand"),
    "not in the deck": (["JH", "JD", "AH", "KH", "2H"], "not_in_deck"),
}


def test_every_form_of_keep_gets_the_same_answer_from_advance_and_apply():
    """do_keep's one-test happy path and its full checks agree with the refusal order."""
    deck = build_deck(
        hands={B: ["9S", "10S", "9C", "10C", "QH"]},
        dummy=["JH", "JD", "AH", "KH", "AS"],
        up="9H",
    )
    state = step(
        step(step(new_game(deck), B, {"type": "accept"}), A, {"type": "leave"}),
        B,
        {"type": "with_dummy"},
    )
    for name, (cards, code) in KEEP_FORMS.items():
        action = {"type": "keep", "cards": cards}
        slow = GAME.apply(state, B, copy.deepcopy(action))
        fast_state = GAME.load(GAME.dump(state))
        quick = GAME.advance(fast_state, B, copy.deepcopy(action))
        assert type(slow) is type(quick), name
        if code is None:
            assert isinstance(slow, Applied), name
            assert slow.state.hands[1] == ("QH", "JH", "JD", "AH", "KH"), name
            assert GAME.dump(slow.state) == GAME.dump(quick.state), name
            assert slow.events == quick.events, name
        else:
            assert isinstance(slow, Refused) and slow.code == code, name
            assert (slow.code, slow.message) == (quick.code, quick.message), name
            assert GAME.dump(fast_state) == GAME.dump(state), name
