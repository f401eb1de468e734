"""House rules the engine enforces (docs/games/rules/lopti.md LOP-A22, LOP-A23, LOP-A24, section 8, L19.1-L19.5),
plus the property tests of the whole meta-game (house rules, Rule Votes, duels) over random sessions.

Players: amina (dealer, opens round 1), baraka, chausiku; clockwise in that order.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.protocol import CLOCK, Applied
from engine.lopti import GAME, session
from engine.lopti.house import BURN_CAUSES, EVENTS, RANKS

from .test_lopti_support import (
    FIVE,
    FULL_DECK,
    PLAYERS,
    act,
    act_events,
    build_deck,
    card_places,
    kinds,
    new_game,
    play,
    refused,
)


def ruled(deck, *rules, players=PLAYERS, dealer="amina", options=None, author="amina", ready=True):
    """A round-1 table with `rules` accepted (through the engine's own rule check and storage,
    as `author_rule` does) and, with `ready`, everyone ready."""
    state = new_game(deck, players, dealer, options)
    for rule in rules:
        assert session.rule_problem(rule, state.options["house_rules"]) is None, rule
        session.add_rule(state, state.players.index(author), rule, [])
    if ready:
        for player in players:
            state = act(state, player, {"type": "ready"})
    return state


def fired(events) -> list[int]:
    return [event.public["rule"] for event in events if event.kind == "rule_fired"]


EIGHTS_RULE = {
    "when": "after",
    "event": "play",
    "if": {"ranks": ["8"], "min_cards": 2},
    "do": [{"effect": "draw", "who": "next", "n": 2}],
    "text": "Two or more 8s: the next player draws two.",
}


# ----- LOP-A22: the hybrid: template rules enforced, text rules shown -------------------------


def test_LOP_A22_template_rule_is_accepted_stored_and_described_in_data():
    """LOP-A22 (1), section 8: the winner may give a structured rule (with optional text); it is
    stored normalized and shown to everyone as data a renderer can word."""
    from .test_lopti_session import to_authoring, winner_of

    state = to_authoring()
    winner = winner_of(state)
    state, events = act_events(state, winner, {"type": "author_rule", "rule": EIGHTS_RULE})
    assert kinds(events) == ["rule_authored", "dealt"]
    shown = GAME.view(state, None)["rules"]
    assert shown == [
        {
            "id": 1,
            "author": winner,
            "round": 1,
            "text": EIGHTS_RULE["text"],
            "enforced": True,
            "rule": {
                "when": "after",
                "event": "play",
                "if": {"ranks": ["8"], "min_cards": 2},
                "do": [{"effect": "draw", "who": "next", "n": 2}],
            },
        }
    ]
    # Text is optional for a structured rule; `when` defaults to "after".
    state = to_authoring(seed=2)
    bare = {"event": "take", "do": [{"effect": "reveal", "who": "actor"}]}
    state = act(state, winner_of(state), {"type": "author_rule", "rule": bare})
    assert GAME.view(state, None)["rules"][0]["rule"]["when"] == "after"
    assert GAME.view(state, None)["rules"][0]["text"] == ""


def test_LOP_A22_text_only_rule_is_shown_and_never_applied():
    """LOP-A22 (2), section 8: a rule with text and no event is a table rule: shown, never applied."""
    deck = build_deck(hand={"amina": ["8S", "8H", "KS"]})
    state = ruled(deck, {"text": "Two 8s: the next player draws two."})
    assert state.hooks == {}
    state, events = act_events(state, "amina", {"type": "play", "cards": ["8S", "8H"]})
    assert "rule_fired" not in kinds(events) and len(state.hands[1]) == 3
    assert GAME.view(state, None)["rules"][0]["enforced"] is False


def test_LOP_A22_winner_builds_a_rule_that_fires_in_the_next_round():
    """LOP-A22, LOP-A23: the winner's rule lasts for the session and acts in the next round."""
    from .test_lopti_session import to_authoring, winner_of

    state = to_authoring()
    winner = winner_of(state)
    rule = {"when": "after", "event": "turn_start", "do": [{"effect": "reveal", "who": "actor"}]}
    state, events = act_events(state, winner, {"type": "author_rule", "rule": rule})
    assert "rule_fired" not in kinds(events)  # acts only from the next action (section 8)
    for player in list(GAME.to_act(state)):
        state, events = act_events(state, player, {"type": "ready"})
    assert kinds(events)[-3:] == ["play_started", "rule_fired", "revealed"]
    assert events[-1].public["player"] == winner  # the previous winner opens round 2


def test_LOP_A23_the_next_deal_waits_for_the_rule_and_the_rule_lasts_the_session():
    """LOP-A23, L19.1: the deal waits in `authoring` until a rule or no_rule; the rule stays."""
    from .test_lopti_session import to_authoring, winner_of

    state = to_authoring()
    assert state.phase == "authoring" and GAME.to_act(state) == [winner_of(state)]
    state = act(state, winner_of(state), {"type": "author_rule", "rule": EIGHTS_RULE})
    assert state.round == 2 and len(GAME.view(state, None)["rules"]) == 1


# ----- section 8 / LOP-A24: validation -----------------------------------------------------------

BAD_RULES = [
    ({"event": "shout", "do": [{"effect": "reverse"}]}, "unknown_event"),
    ({"when": "during", "event": "play", "do": [{"effect": "reverse"}]}, "bad_when"),
    ({"event": "play", "if": {"colour": "red"}, "do": [{"effect": "reverse"}]}, "bad_condition"),
    ({"event": "take", "if": {"ranks": ["8"]}, "do": [{"effect": "reverse"}]}, "condition_not_allowed"),
    ({"event": "play", "if": {"burn_cause": "ten"}, "do": [{"effect": "reverse"}]}, "condition_not_allowed"),
    ({"event": "play", "do": []}, "bad_effects"),
    ({"event": "play", "do": [{"effect": "reverse"}] * 4}, "bad_effects"),
    ({"event": "play", "do": [{"effect": "reverse", "n": 2}]}, "bad_effects"),
    ({"event": "play", "do": [{"effect": "win"}]}, "unknown_effect"),
    ({"event": "play", "do": [{"effect": "prevent"}]}, "unknown_effect"),
    ({"event": "play", "do": [{"effect": "draw", "who": "baraka", "n": 1}]}, "bad_target"),
    ({"event": "play", "do": [{"effect": "skip", "who": "others"}]}, "bad_target"),
    ({"event": "play", "do": [{"effect": "give", "who": "next", "to": "next", "n": 1}]}, "bad_target"),
    ({"event": "play", "do": [{"effect": "draw", "who": "next", "n": 4}]}, "out_of_bounds"),
    ({"event": "play", "do": [{"effect": "draw", "who": "next", "n": 0}]}, "out_of_bounds"),
    ({"event": "play", "do": [{"effect": "give", "who": "actor", "to": "next", "n": 3}]}, "out_of_bounds"),
    ({"event": "play", "if": {"min_cards": 5}, "do": [{"effect": "reverse"}]}, "out_of_bounds"),
    ({"event": "play", "if": {"ranks": ["1"]}, "do": [{"effect": "reverse"}]}, "out_of_bounds"),
    ({"event": "play", "if": {"ranks": []}, "do": [{"effect": "reverse"}]}, "out_of_bounds"),
    ({"event": "burn", "if": {"burn_cause": "fire"}, "do": [{"effect": "reverse"}]}, "out_of_bounds"),
    ({"event": "flip", "if": {"legal": "yes"}, "do": [{"effect": "reverse"}]}, "out_of_bounds"),
    ({"event": "play", "do": [{"effect": "return_burned"}]}, "effect_not_allowed"),
    ({"when": "before", "event": "burn", "do": [{"effect": "return_burned"}]}, "effect_not_allowed"),
    ({"event": "play", "do": [{"effect": "burn"}]}, "effect_not_allowed"),
    ({"event": "take", "if": {"min_pile": 3}, "do": [{"effect": "burn"}]}, "effect_not_allowed"),
    ({"event": "play", "do": [{"effect": "reverse"}], "text": ""}, "rule_empty"),
    ({"event": "play", "do": [{"effect": "reverse"}], "text": "x" * 281}, "rule_too_long"),
]


@pytest.mark.parametrize("rule,code", BAD_RULES)
def test_section8_validation_refuses_a_bad_rule_with_a_reason(rule, code):
    """Section 8: the bot checks a rule (unknown event, effect not allowed on that event, bounds)
    before it is accepted; LOP-A24: no prevent, no names, bounded effects."""
    from .test_lopti_session import to_authoring, winner_of

    state = to_authoring()
    result = refused(state, winner_of(state), {"type": "author_rule", "rule": rule})
    assert result.code == code and result.message


def test_LOP_A24_targets_are_roles_never_people():
    """L19.4, LOP-A24: every role is accepted, a player's name never is."""
    from .test_lopti_session import to_authoring, winner_of

    state = to_authoring()
    winner = winner_of(state)
    for role in ("actor", "next", "previous", "most_cards", "fewest_cards"):
        rule = {"event": "take", "do": [{"effect": "skip", "who": role}]}
        assert session.rule_problem(rule, "templates") is None
    assert (
        refused(
            state, winner, {"type": "author_rule", "rule": {"event": "take", "do": [{"effect": "skip", "who": winner}]}}
        ).code
        == "bad_target"
    )


def test_LOP_A24_template_modes_of_the_house_rules_option():
    """Section 6 `house_rules`: "templates" takes structured rules, "text" refuses them."""
    from .test_lopti_session import to_authoring, winner_of

    state = to_authoring(options={"house_rules": "templates"})
    state = act(state, winner_of(state), {"type": "author_rule", "rule": EIGHTS_RULE})
    assert state.hooks and state.round == 2
    state = to_authoring(options={"house_rules": "text"})
    assert refused(state, winner_of(state), {"type": "author_rule", "rule": EIGHTS_RULE}).code == "templates_off"


# ----- section 8: effects ------------------------------------------------------------------------


def test_section8_draw_effect_spec_example():
    """Section 8 example: two or more 8s, the next player draws two (then the actor's draw step)."""
    deck = build_deck(hand={"amina": ["8S", "8H", "KS"]}, stock=["4D", "5D", "6D", "9D"])
    state = ruled(deck, EIGHTS_RULE)
    state, events = act_events(state, "amina", {"type": "play", "cards": ["8S", "8H"]})
    assert kinds(events) == ["played", "rule_fired", "drew", "drew"]
    assert events[2].public == {"player": "baraka", "count": 2, "rule": 1}
    assert events[2].view("chausiku") == {"kind": "drew", "player": "baraka", "count": 2, "rule": 1}
    assert events[2].view("baraka")["cards"] == ["4D", "5D"]
    assert len(state.hands[1]) == 5 and "6D" in state.hands[0]  # amina's own draw comes after
    # A single 8 does not meet `min_cards`.
    state2 = ruled(build_deck(hand={"amina": ["8S", "JS", "KS"]}), EIGHTS_RULE)
    assert "rule_fired" not in kinds(act_events(state2, "amina", {"type": "play", "cards": ["8S"]})[1])


def test_section8_draw_from_an_empty_stock_does_nothing():
    """Section 8: `draw` takes from the stock; nothing when it is empty."""
    deck = build_deck(hand={"amina": ["8S", "8H", "KS"]})
    state = ruled(deck, EIGHTS_RULE)
    state.stock, state.burned = [], state.burned + state.stock
    state, events = act_events(state, "amina", {"type": "play", "cards": ["8S", "8H"]})
    assert kinds(events) == ["played", "rule_fired"] and len(state.hands[1]) == 3


def test_section8_give_moves_the_lowest_hand_cards():
    """Section 8 `give` {who, to, n}: who gives their n lowest hand cards (privately shown)."""
    rule = {
        "event": "play",
        "if": {"ranks": ["K"]},
        "do": [{"effect": "give", "who": "actor", "to": "previous", "n": 2}],
    }
    deck = build_deck(hand={"amina": ["KS", "4S", "9H"]}, stock=["2D", "QD"])
    state = ruled(deck, rule)
    state, events = act_events(state, "amina", {"type": "play", "cards": ["KS"]})
    gave = events[kinds(events).index("gave")]
    # amina holds 4S 9H: she keeps at least one hand card, so gives only 4S to chausiku.
    assert gave.public == {"player": "amina", "to": "chausiku", "count": 1, "rule": 1}
    assert gave.view("chausiku")["cards"] == ["4S"] and "cards" not in gave.view("baraka")
    assert "4S" in state.hands[2] and len(state.hands[2]) == 4
    assert card_places(state) == FULL_DECK


def test_section8_skip_makes_the_target_miss_their_next_turn():
    """Section 8 `skip` {who}: who misses their next turn (an extra play is not a turn)."""
    rule = {"event": "play", "if": {"ranks": ["9"]}, "do": [{"effect": "skip", "who": "next"}]}
    state = ruled(build_deck(hand={"amina": ["9S", "5S", "KS"]}), rule)
    state, events = act_events(state, "amina", {"type": "play", "cards": ["9S"]})
    assert kinds(events)[-1] == "skipped" and events[-1].public == {"player": "baraka"}
    assert GAME.to_act(state) == ["chausiku"] and state.skips == []
    # A skip set on the burner does not take their extra play.
    rule = {"event": "burn", "do": [{"effect": "skip", "who": "actor"}]}
    state = ruled(build_deck(hand={"amina": ["10S", "5S", "KS"]}), rule)
    state, events = act_events(state, "amina", {"type": "play", "cards": ["10S"]})
    assert kinds(events)[-1] == "extra_play" and GAME.to_act(state) == ["amina"]
    state, events = act_events(state, "amina", {"type": "play", "cards": ["5S"]})
    assert GAME.to_act(state) == ["baraka"]
    assert GAME.view(state, None)["skips"] == ["amina"]


def test_section8_reverse_changes_the_direction_of_play():
    """Section 8 `reverse`: the direction of play reverses (for the rest of the round)."""
    rule = {"event": "play", "if": {"ranks": ["J"]}, "do": [{"effect": "reverse"}]}
    state = ruled(build_deck(hand={"amina": ["JS", "5S", "KS"]}), rule)
    state, events = act_events(state, "amina", {"type": "play", "cards": ["JS"]})
    assert "reversed" in kinds(events) and GAME.to_act(state) == ["chausiku"]
    assert GAME.view(state, None)["direction"] == "anticlockwise"


def test_section8_reveal_shows_hands_to_the_table():
    """Section 8 `reveal` {who}: who's hand is shown to everyone (`others`: every other player)."""
    rule = {"event": "take", "do": [{"effect": "reveal", "who": "others"}]}
    state = ruled(build_deck(hand={"amina": ["JS", "5S", "KS"]}), rule)
    state = play(state, "amina", "JS")
    state, events = act_events(state, "baraka", {"type": "take"})
    revealed = [event.public for event in events if event.kind == "revealed"]
    assert [entry["player"] for entry in revealed] == ["chausiku", "amina"]
    assert set(revealed[1]["cards"]) == set(state.hands[0])


def test_section8_return_burned_shuffles_the_burned_cards_into_the_stock():
    """Section 8 `return_burned` (only after a burn): the burned cards go back into the stock."""
    rule = {"event": "burn", "do": [{"effect": "return_burned"}]}
    state = ruled(build_deck(hand={"amina": ["9S", "5S", "KS"], "baraka": ["10H", "4H", "6H"]}), rule)
    stock = len(state.stock)
    state = play(state, "amina", "9S")
    state, events = act_events(state, "baraka", {"type": "play", "cards": ["10H"]})
    returned = events[kinds(events).index("burned_returned")]
    assert sorted(returned.public["cards"]) == ["10H", "9S"]
    assert state.burned == [] and len(state.stock) == stock - 2 + 2  # both drew one before
    assert card_places(state) == FULL_DECK


def test_section8_custom_burn_gives_the_extra_play_even_on_an_empty_table():
    """Section 8 `burn` (on a play, with a condition) and section 9: a custom burn gives the usual
    extra play, also on an empty table; one play gives one extra play."""
    rule = {"event": "play", "if": {"ranks": ["9"]}, "do": [{"effect": "burn"}]}
    state = ruled(build_deck(hand={"amina": ["5S", "9S", "KS"], "baraka": ["9H", "4H", "6H"]}), rule)
    state, events = act_events(state, "amina", {"type": "play", "cards": ["9S"]})
    assert [e.public["cause"] for e in events if e.kind == "burned"] == ["rule"]
    assert kinds(events)[-1] == "extra_play" and GAME.to_act(state) == ["amina"]
    assert state.pile == [] and "9S" in state.burned


def test_section8_before_resolves_first_then_the_base_event():
    """Section 8 `when`: before -> the effects resolve first, then the base event; after -> after."""
    before = {"when": "before", "event": "take", "do": [{"effect": "give", "who": "actor", "to": "next", "n": 1}]}
    after = {"when": "after", "event": "take", "do": [{"effect": "give", "who": "actor", "to": "next", "n": 1}]}
    deck = build_deck(hand={"amina": ["2S", "5S", "KS"], "baraka": ["9H", "4H", "6H"]})
    state = act(ruled(deck, before), "amina", {"type": "play", "cards": ["2S"]})
    taken, events = act_events(state, "baraka", {"type": "take"})
    assert kinds(events)[:3] == ["rule_fired", "gave", "took"]
    assert events[1].view("baraka")["cards"] == ["4H"]  # from the hand before the pile came in
    state = act(ruled(deck, after), "amina", {"type": "play", "cards": ["2S"]})
    taken, events = act_events(state, "baraka", {"type": "take"})
    assert kinds(events)[:3] == ["took", "rule_fired", "gave"]
    assert events[2].view("baraka")["cards"] == ["2S"]  # the pile's 2 is now the lowest


def test_section8_several_rules_on_one_event_resolve_in_the_order_they_were_made():
    rules = [{"event": "play", "do": [{"effect": "reveal", "who": "actor"}]} for _ in range(3)]
    state = ruled(build_deck(hand={"amina": ["5S", "9S", "KS"]}), *rules)
    _, events = act_events(state, "amina", {"type": "play", "cards": ["9S"]})
    assert fired(events) == [1, 2, 3]


def test_section8_effects_never_trigger_house_rules_so_nothing_loops():
    """Section 8, L19.3: a rule's custom burn does not trigger `burn` rules; a rule's draw does
    not trigger anything either."""
    rules = [
        {"event": "play", "if": {"ranks": ["9"]}, "do": [{"effect": "burn"}]},
        {"event": "burn", "do": [{"effect": "draw", "who": "next", "n": 1}]},
    ]
    state = ruled(build_deck(hand={"amina": ["5S", "9S", "KS"]}), *rules)
    _, events = act_events(state, "amina", {"type": "play", "cards": ["9S"]})
    assert fired(events) == [1]


def test_section8_no_effect_prevents_a_win_and_out_players_are_untouched():
    """Section 8, L19.3: effects on a player who is out do nothing; the win stands."""
    rules = [
        {"when": "before", "event": "out", "do": [{"effect": "draw", "who": "actor", "n": 3}]},
        {"event": "play", "do": [{"effect": "give", "who": "next", "to": "actor", "n": 2}]},
    ]
    deck = build_deck(
        hand={"amina": ["9S", "5S", "KS"]},
        face_up={"amina": ["QS", "QH", "QD"]},
        face_down={"amina": ["AS", "AH", "AD"]},
    )
    state = ruled(deck, *rules)
    state.hands[0], state.face_up[0], state.face_down[0] = ["KS"], [], [None, None, None]
    state.burned = state.burned + ["9S", "5S", "QS", "QH", "QD", "AS", "AH", "AD"]
    state, events = act_events(state, "amina", {"type": "play", "cards": ["KS"]})
    assert "gave" not in kinds(events) and "drew" not in kinds(events)
    assert kinds(events)[-2:] == ["out", "round_won"] and state.phase == "authoring"
    assert card_places(state) == FULL_DECK


def test_section8_a_skip_never_prevents_a_burn_or_its_extra_play():
    """L15.4: a custom rule cannot prevent a burn or the burner's extra play."""
    rule = {"when": "before", "event": "burn", "do": [{"effect": "skip", "who": "actor"}, {"effect": "reverse"}]}
    state = ruled(build_deck(hand={"amina": ["10S", "5S", "KS"]}), rule)
    state, events = act_events(state, "amina", {"type": "play", "cards": ["10S"]})
    assert kinds(events)[-1] == "extra_play" and "burned" in kinds(events)


def test_section8_flip_face_up_taken_and_obligation_events():
    """Section 8 events `flip` (condition `legal`), `face_up_taken` and `obligation_passed`."""
    rules = [
        {"event": "flip", "if": {"legal": False}, "do": [{"effect": "reveal", "who": "next"}]},
        {"event": "face_up_taken", "do": [{"effect": "reveal", "who": "actor"}]},
        {"event": "obligation_passed", "do": [{"effect": "draw", "who": "actor", "n": 1}]},
    ]
    deck = build_deck(hand={"amina": ["3S", "5S", "KS"], "baraka": ["9H", "4H", "6H"]})
    state = ruled(deck, *rules)
    state = play(state, "amina", "KS")
    state = act(state, "baraka", {"type": "take"})
    state, events = act_events(state, "chausiku", {"type": "play", "cards": [state.hands[2][0]]})
    # obligation: amina plays a 3 on a pile -> the rule on obligation_passed fires for amina.
    state, events = act_events(state, "amina", {"type": "play", "cards": ["3S"]})
    assert "obligation_passed" in kinds(events) and fired(events) == [3]
    # face_up_taken: give baraka an empty hand after a play.
    state2 = ruled(build_deck(hand={"amina": ["9S", "5S", "KS"]}), *rules)
    state2.hands[0] = ["9S"]
    state2.burned = state2.burned + ["5S", "KS"]
    state2.stock, state2.burned = [], state2.burned + state2.stock
    _, events = act_events(state2, "amina", {"type": "play", "cards": ["9S"]})
    assert "face_up_taken" in kinds(events) and fired(events) == [2]
    # flip: an illegal face-down card.
    state3 = ruled(build_deck(hand={"amina": ["9S", "5S", "KS"]}, face_down={"baraka": ["4C", "5C", "6C"]}), *rules)
    state3 = play(state3, "amina", "KS")
    state3.burned = state3.burned + state3.hands[1] + state3.face_up[1]
    state3.hands[1], state3.face_up[1] = [], []
    _, events = act_events(state3, "baraka", {"type": "flip", "position": 0})
    assert fired(events) == [1] and kinds(events)[:3] == ["flipped", "rule_fired", "revealed"]


def test_section8_most_and_fewest_cards_ties_go_clockwise_from_the_actor():
    """Section 8 targets: `most_cards` / `fewest_cards`; ties: the first such player clockwise
    from the actor (the actor included)."""
    rule = {
        "event": "play",
        "do": [{"effect": "reveal", "who": "fewest_cards"}, {"effect": "reveal", "who": "most_cards"}],
    }
    state = ruled(build_deck(hand={"amina": ["9S", "5S", "KS"]}), rule)
    _, events = act_events(state, "amina", {"type": "play", "cards": ["9S"]})
    revealed = [event.public["player"] for event in events if event.kind == "revealed"]
    # After the play (before her draw) amina holds 8 cards, the others 9: fewest amina, most baraka.
    assert revealed == ["amina", "baraka"]


def test_L19_5_and_L20_9_a_removed_rule_cannot_be_authored_again():
    """L20.9: a removed rule cannot return this session except by a later Rule Vote."""
    from .test_lopti_session import to_authoring, winner_of

    state = to_authoring()
    winner = winner_of(state)
    state = act(state, winner, {"type": "author_rule", "rule": EIGHTS_RULE})
    state = act(state, winner, {"type": "delete_rule", "rule": 1})
    assert state.hooks == {}
    rng = random.Random(5)
    while state.phase != "authoring":
        player = rng.choice(GAME.to_act(state))
        choices = [a for a in GAME.legal_actions(state, player) if a["type"] not in ("vote", "throw", "champion")]
        state = act(state, player, rng.choice(choices))
    assert refused(state, winner_of(state), {"type": "author_rule", "rule": EIGHTS_RULE}).code == "rule_removed"


# ----- properties over random sessions with the whole meta-game ------------------------------------


def random_rule(rng: random.Random) -> dict:
    event_name = rng.choice(EVENTS)
    when = rng.choice(["before", "after"])
    conditions = {}
    from engine.lopti.house import CONDITIONS

    for key in CONDITIONS[event_name]:
        if rng.random() < 0.3:
            conditions[key] = {
                "ranks": lambda: rng.sample(RANKS, rng.randint(1, 4)),
                "min_cards": lambda: rng.randint(1, 3),
                "min_pile": lambda: rng.randint(1, 6),
                "burn_cause": lambda: rng.choice(BURN_CAUSES),
                "legal": lambda: rng.random() < 0.5,
            }[key]()
    effects = []
    for _ in range(rng.randint(1, 3)):
        name = rng.choice(["draw", "give", "skip", "reverse", "reveal", "return_burned", "burn"])
        if name == "return_burned" and not (event_name == "burn" and when == "after"):
            name = "reverse"
        if name == "burn" and not (event_name == "play" and conditions):
            name = "skip"
        roles = ["actor", "next", "previous", "most_cards", "fewest_cards"]
        effect = {"effect": name}
        if name in ("draw", "reveal"):
            effect["who"] = rng.choice(roles + ["others"])
        if name == "draw":
            effect["n"] = rng.randint(1, 3)
        if name == "skip":
            effect["who"] = rng.choice(roles)
        if name == "give":
            effect["who"], effect["to"] = rng.sample(roles, 2)
            effect["n"] = rng.randint(1, 2)
        effects.append(effect)
    rule = {"when": when, "event": event_name, "do": effects}
    if conditions:
        rule["if"] = conditions
    if rng.random() < 0.3:
        rule["text"] = "house rule"
    return rule


def random_meta_action(state, rng: random.Random):
    """A random meta-game or play action, mostly legal."""
    players = state.players
    if (
        state.phase in ("setup", "play")
        and state.vote is None
        and state.duel is None
        and not state.vote_used
        and rng.random() < 0.05
    ):
        active = [r for r in state.rules if r["active"]]
        options = [
            {"option": "ten_on_seven", "value": not state.options["ten_on_seven"]},
            {"option": "draw_up_to_three", "value": not state.options["draw_up_to_three"]},
        ]
        if active:
            record = rng.choice(active)
            options.append({"remove": record["id"]})
            if state.options["house_rules"] != "text":
                options.append({"amend": record["id"], "rule": random_rule(rng)})
        change = rng.choice(options)
        return rng.choice(players), {"type": "propose", "change": change, "starts": rng.choice(["now", "next_round"])}
    if state.vote is not None and rng.random() < 0.3:
        if rng.random() < 0.1:
            return CLOCK, {"type": "close_vote"}
        return rng.choice(players), {"type": "vote", "yes": rng.random() < 0.5}
    if state.duel is not None and rng.random() < 0.5:
        duel = state.duel
        if duel["stage"] != "throws" and rng.random() < 0.2:
            return CLOCK, {"type": "close_champion"}
        candidates = [
            p for p in players if any(a["type"] in ("throw", "champion") for a in GAME.legal_actions(state, p))
        ]
        if candidates:
            player = rng.choice(candidates)
            return player, rng.choice(
                [a for a in GAME.legal_actions(state, player) if a["type"] in ("throw", "champion")]
            )
    waiting = GAME.to_act(state)
    player = rng.choice(waiting)
    if state.phase == "authoring" and state.options["house_rules"] != "off" and rng.random() < 0.7:
        if state.options["house_rules"] == "text" or rng.random() < 0.2 and state.options["house_rules"] != "templates":
            return player, {"type": "author_rule", "rule": {"text": f"rule {state.round}"}}
        return player, {"type": "author_rule", "rule": random_rule(rng)}
    if rng.random() < 0.02:
        return CLOCK, {"type": "timeout"}
    actions = [a for a in GAME.legal_actions(state, player) if a["type"] not in ("vote", "throw", "champion")]
    return player, rng.choice(actions)


def assert_no_pending_throw_leaks(state, events) -> None:
    duel = state.duel
    if duel is None:
        return
    for thrower, sign in duel["pending"].items():
        for viewer in state.players + [None]:
            view = GAME.view(state, viewer)
            if viewer != thrower:
                assert view["duel"]["my_throw"] is None
                assert sign not in json.dumps({k: v for k, v in view.items() if k != "duel"})
                for event in events:
                    if event.kind == "throw_made":
                        assert "sign" not in event.view(viewer)


def meta_session(seed: int, count: int, options: dict, rounds: int, checks: bool):
    rng = random.Random(seed)
    players = FIVE[:count]
    state = GAME.new(players, GAME.Options(**options), seed)
    record = []
    steps = 0
    while state.round <= rounds:
        steps += 1
        assert steps < 20_000, "a round did not end"
        player, action = random_meta_action(state, rng)
        if checks:
            before = GAME.dump(state)
        result = GAME.apply(state, player, GAME.check_action(player, action, players))
        if checks:
            assert GAME.dump(state) == before, "apply changed its input"
        if not isinstance(result, Applied):
            assert action["type"] in ("propose", "author_rule"), (player, action, result)
            continue
        record.append((player, action))
        if checks:
            assert card_places(result.state) == FULL_DECK
            assert_no_pending_throw_leaks(result.state, result.events)
            for event in result.events:
                json.dumps(event.to_json())
        if result.state.round != state.round:
            steps = 0
        state = result.state
        if checks and rng.random() < 0.05:
            loaded = GAME.load(json.loads(json.dumps(GAME.dump(state))))
            assert loaded == state and loaded.hooks == state.hooks
            state = loaded
    return state, record


meta_options = st.builds(
    lambda seed: {
        "house_rules": random.Random(seed).choice(["templates_and_text", "templates", "templates_and_text"]),
        "play_for_places": random.Random(seed + 1).random() < 0.3,
        "rps_first_to_16": random.Random(seed + 2).random() < 0.7,
    },
    st.integers(0, 10**6),
)


@settings(deadline=None, max_examples=8)
@given(seed=st.integers(0, 10**9), count=st.integers(2, 5), options=meta_options)
def test_random_sessions_with_house_rules_votes_and_duels_keep_every_invariant(seed, count, options):
    """Random valid house rules, votes and duels: cards conserved, every round ends, a pending
    throw never leaks, apply never changes its input, JSON round trips behave the same."""
    state, _ = meta_session(seed, count, options, rounds=3, checks=True)
    assert state.round == 4


@settings(deadline=None, max_examples=8)
@given(seed=st.integers(0, 10**9), count=st.integers(2, 5), options=meta_options)
def test_random_meta_sessions_replay_identically_with_advance(seed, count, options):
    """The same seed and actions give the same state, through `apply` and through `advance`."""
    state, record = meta_session(seed, count, options, rounds=3, checks=False)
    again = GAME.new(FIVE[:count], GAME.Options(**options), seed)
    for player, action in record:
        result = GAME.advance(again, player, GAME.check_action(player, action, again.players))
        assert isinstance(result, Applied)
        again = result.state
    assert again == state and GAME.dump(again) == GAME.dump(state)
