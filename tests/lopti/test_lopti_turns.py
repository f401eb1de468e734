"""Rule tests for a Lopti turn, the face-up and face-down phases, going out and the setup
(docs/games/rules/lopti.md sections 3.3-3.6). Players: amina (dealer, opens), baraka, chausiku."""

from __future__ import annotations

import random

from engine.core.protocol import Applied
from engine.lopti import GAME

from .test_lopti_support import (
    FIVE,
    PLAYERS,
    act,
    act_events,
    build_deck,
    hand_of,
    kinds,
    new_game,
    play,
    refused,
    started,
)


def face_down_deck(face_down, baraka=("KH", "4H", "5H"), chausiku=("AC", "6C", "8C"), stock=("9D", "JD", "KD")):
    """amina burns with three 10s, draws the fourth, burns again, takes up three queens, plays them."""
    return build_deck(
        hand={"amina": ["10S", "10H", "10D"], "baraka": list(baraka), "chausiku": list(chausiku)},
        face_up={"amina": ["QS", "QH", "QD"]},
        face_down={"amina": list(face_down)},
        stock=["10C", *stock],
    )


def to_face_down_phase(deck, options=None):
    state = started(deck, options=options)
    state, first = act_events(state, "amina", {"type": "play", "cards": ["10S", "10H", "10D"]})
    state, second = act_events(state, "amina", {"type": "play", "cards": ["10C"]})
    state, third = act_events(state, "amina", {"type": "play", "cards": ["QS", "QH", "QD"]})
    return state, first + second + third


def test_face_up_cards_are_taken_all_at_once_during_extra_plays():
    """LOP-A15 (L16.1, L16.2), LOP-A11 steps 4-6: the draw comes first; when the hand runs out
    during an extra play the three face-up cards become the hand and may be played together."""
    state = started(face_down_deck(["4C", "5C", "9C"]))
    state, events = act_events(state, "amina", {"type": "play", "cards": ["10S", "10H", "10D"]})
    assert kinds(events) == ["played", "burned", "drew", "extra_play"]
    assert events[2].private["amina"]["cards"] == ["10C"] and "cards" not in events[2].public
    state, events = act_events(state, "amina", {"type": "play", "cards": ["10C"]})
    assert kinds(events) == ["played", "burned", "face_up_taken", "extra_play"]
    assert hand_of(state, "amina") == ["QS", "QH", "QD"] and GAME.view(state, None)["seats"]["amina"]["face_up"] == []
    state = play(state, "amina", "QS", "QH", "QD")
    assert GAME.to_act(state) == ["baraka"] and hand_of(state, "amina") == []


def test_draw_rule_applies_in_the_face_down_phase():
    """LOP-A12 (L3.1, L14.6): a legal face-down card is followed by the draw while the stock lasts."""
    state, _ = to_face_down_phase(face_down_deck(["2C", "5C", "9C"]))
    state = play(state, "baraka", "KH")
    state = play(state, "chausiku", "AC")
    assert {"type": "flip", "position": 0} in GAME.legal_actions(state, "amina")
    state, events = act_events(state, "amina", {"type": "flip", "position": 0})
    assert kinds(events) == ["flipped", "drew"]
    assert events[0].public["card"] == "2C" and events[0].public["legal"]
    assert len(hand_of(state, "amina")) == 1


def test_illegal_face_down_card_is_taken_up_with_the_pile():
    """L16.5, LOP-A16: an illegal face-down card joins the pile, the pile is taken, the turn ends, no draw."""
    state, _ = to_face_down_phase(face_down_deck(["4C", "5C", "9C"]))
    state = play(state, "baraka", "KH")
    state = play(state, "chausiku", "AC")
    state, events = act_events(state, "amina", {"type": "flip", "position": 0})
    assert kinds(events) == ["flipped", "took"]
    assert events[0].public["legal"] is False and events[1].public["forced"] is True
    assert sorted(hand_of(state, "amina")) == sorted(["QS", "QH", "QD", "KH", "AC", "4C"])
    assert GAME.to_act(state) == ["baraka"] and state.pile == []
    assert GAME.view(state, None)["seats"]["amina"]["face_down"] == [1, 2]


def test_only_a_face_down_three_answers_an_obligation():
    """L16.6, LOP-A8.3: under an obligation a flipped 3 passes it on; another card is taken with the pile."""
    state, _ = to_face_down_phase(face_down_deck(["3S", "9S", "4C"], chausiku=("3C", "6C", "8C")))
    state = play(state, "baraka", "KH")
    state = play(state, "chausiku", "3C")
    state, events = act_events(state, "amina", {"type": "flip", "position": 0})
    assert kinds(events)[:2] == ["flipped", "obligation_passed"] and events[1].public["to"] == "baraka"
    state, _ = to_face_down_phase(face_down_deck(["9S", "3S", "4C"], chausiku=("3C", "6C", "8C")))
    state = play(state, "baraka", "KH")
    state = play(state, "chausiku", "3C")
    state, events = act_events(state, "amina", {"type": "flip", "position": 0})
    assert kinds(events) == ["flipped", "took"] and "9S" in hand_of(state, "amina")


def test_face_down_player_may_take_unless_the_table_says_flip():
    """LOP-A16: taking is allowed in the face-down phase; `face_down_may_take: false` forces a flip."""
    state, _ = to_face_down_phase(face_down_deck(["4C", "5C", "9C"]))
    state = play(play(state, "baraka", "KH"), "chausiku", "AC")
    assert {"type": "take"} in GAME.legal_actions(state, "amina")
    assert refused(state, "amina", {"type": "play", "cards": ["4C"]}).code == "not_in_hand"
    assert refused(state, "amina", {"type": "flip", "position": 3}).code == "bad_position"
    state, _ = to_face_down_phase(face_down_deck(["4C", "5C", "9C"]), options={"face_down_may_take": False})
    state = play(play(state, "baraka", "KH"), "chausiku", "AC")
    assert refused(state, "amina", {"type": "take"}).code == "must_flip"
    assert GAME.legal_actions(state, "amina") == [{"type": "flip", "position": p} for p in range(3)]


def test_flip_is_refused_while_the_hand_holds_cards():
    """L6.1: hand cards first, face-down cards last."""
    state = started(build_deck())
    assert refused(state, "amina", {"type": "flip", "position": 0}).code == "hand_not_empty"


def test_take_ends_the_turn_without_a_draw():
    """LOP-A11 step 2 (L4.1, L4.2, L14.5): a take ends the turn at once; there is no draw."""
    deck = build_deck(hand={"amina": ["5S", "4S", "6S"], "baraka": ["4H", "6H", "8H"]})
    state = play(started(deck), "amina", "5S")
    stock = len(state.stock)
    state, events = act_events(state, "baraka", {"type": "take"})
    assert kinds(events) == ["took"] and len(state.stock) == stock
    assert GAME.to_act(state) == ["chausiku"] and len(hand_of(state, "baraka")) == 4


def test_draw_is_one_card_counted_after_the_play():
    """LOP-A13 (L14.6, L14.7): two of three cards played leaves one, so exactly one card is drawn;
    `draw_up_to_three` refills to three instead."""
    deck = build_deck(hand={"amina": ["9S", "9H", "KS"]}, stock=["JS", "JH", "JD"])
    state = play(started(deck), "amina", "9S", "9H")
    assert sorted(hand_of(state, "amina")) == ["JS", "KS"]
    state = play(started(deck, options={"draw_up_to_three": True}), "amina", "9S", "9H")
    assert len(hand_of(state, "amina")) == 3


def test_no_draw_with_three_or_more_cards_after_the_play():
    """L14.7: a player who still holds three cards after the play does not draw."""
    deck = build_deck(hand={"amina": ["5S", "8S", "4S"], "baraka": ["9H", "4H", "6H"], "chausiku": ["6C", "QC", "KC"]})
    state = play(started(deck), "amina", "5S")
    state = act(state, "baraka", {"type": "take"})
    state = play(state, "chausiku", "6C")
    state = play(state, "amina", "8S")
    state, events = act_events(state, "baraka", {"type": "play", "cards": ["9H"]})
    assert "drew" not in kinds(events) and len(hand_of(state, "baraka")) == 3


def test_one_setup_swap_then_ready():
    """LOP-A14 (L1.2, L13.7): one exchange of one hand card with one face-up card, before play;
    `unlimited_swaps` allows more."""
    deck = build_deck(hand={"amina": ["4S", "5S", "6S"]}, face_up={"amina": ["KS", "AS", "QS"]})
    state = new_game(deck)
    assert GAME.to_act(state) == PLAYERS
    state, events = act_events(state, "amina", {"type": "swap", "hand": "4S", "face_up": "AS"})
    assert events[0].public == {"player": "amina", "to_face_up": "4S", "to_hand": "AS"}
    assert GAME.view(state, "amina")["seats"]["amina"]["face_up"] == ["KS", "4S", "QS"]
    assert refused(state, "amina", {"type": "swap", "hand": "5S", "face_up": "KS"}).code == "swap_used"
    assert refused(state, "amina", {"type": "swap", "hand": "9S", "face_up": "KS"}).code == "swap_used"
    assert refused(state, "amina", {"type": "play", "cards": ["5S"]}).code == "wrong_phase"
    state = act(state, "amina", {"type": "ready"})
    assert refused(state, "amina", {"type": "ready"}).code == "already_ready"
    assert GAME.to_act(state) == ["baraka", "chausiku"]
    state = act(act(state, "baraka", {"type": "ready"}), "chausiku", {"type": "ready"})
    assert GAME.to_act(state) == ["amina"]
    assert refused(state, "baraka", {"type": "swap", "hand": "4H", "face_up": "4D"}).code == "wrong_phase"
    state = new_game(deck, options={"unlimited_swaps": True})
    state = act(state, "amina", {"type": "swap", "hand": "4S", "face_up": "AS"})
    state = act(state, "amina", {"type": "swap", "hand": "5S", "face_up": "KS"})
    assert hand_of(state, "amina") == ["6S", "KS", "AS"]


def test_dealing_order_and_stock_size():
    """LOP-A19, docs/REPLAY.md dealing: face-down, face-up, hand, left of the dealer first; stock 52 - 9N."""
    for count in range(2, 6):
        players = FIVE[:count]
        state = GAME.new(players, GAME.Options(), 3, players[0])
        assert GAME.view(state, None)["stock_count"] == 52 - 9 * count
    deck = build_deck(face_down={"baraka": ["AS", "KS", "QS"]}, hand={"amina": ["4S", "5S", "6S"]})
    assert [deck[0], deck[3], deck[6]] == ["AS", "KS", "QS"]  # baraka sits left of the dealer
    assert [deck[20], deck[23], deck[26]] == ["4S", "5S", "6S"]  # the dealer is dealt last
    state = new_game(deck)
    assert GAME.replay_hands(state)["baraka"]["face_down"] == ["AS", "KS", "QS"]
    assert GAME.replay_hands(state)["amina"]["hand"] == ["4S", "5S", "6S"]
    assert state.stock == deck[27:]


def test_not_your_turn():
    """L14.1: play goes clockwise; only the player to act may play or take."""
    state = started(build_deck())
    assert refused(state, "baraka", {"type": "take"}).code == "not_your_turn"


# ----- going out, places and the round flow, found in seeded random games ---------------------


def random_steps_with_events(seed: int, players, options, rounds: int = 1):
    """Yield (before, player, action, events, after) of a seeded random game until `rounds` rounds end."""
    rng = random.Random(seed)
    state = GAME.new(players, GAME.Options(**options), seed)
    while state.round <= rounds:
        player = rng.choice(GAME.to_act(state))
        action = rng.choice(GAME.legal_actions(state, player))
        result = GAME.apply(state, player, action)
        assert isinstance(result, Applied)
        yield state, player, action, result.events, result.state
        state = result.state


def out_steps(options, count=3, seeds=range(200)):
    for seed in seeds:
        for before, player, action, events, after in random_steps_with_events(seed, FIVE[:count], options):
            if "out" in kinds(events):
                yield before, player, action, events, after


def test_first_player_out_wins_and_forfeits_the_extra_play():
    """LOP-A17 (L17.1, L17.3, L5.1): out at once, no draw, no extra play even after a burn;
    the round ends with the first player out (LOP-A18 default)."""
    burned_out = 0
    for _before, player, _action, events, after in out_steps({}):
        names = kinds(events)
        out_at = names.index("out")
        assert "drew" not in names[out_at:] and "extra_play" not in names
        assert names[out_at + 1] == "round_won" and after.phase == "authoring"
        assert GAME.to_act(after) == [player] and GAME.scores(after)[player] == 1
        burned_out += "burned" in names
        if burned_out >= 3:
            break
    assert burned_out >= 3


def test_next_active_player_follows_an_out_player():
    """LOP-A10, LOP-A17 (L17.2, L17.4): with play for places the next active player acts, on an
    empty table after a burn, under the obligation after a last 3; out players never act again."""
    seen = {"burn": 0, "three": 0}
    for seed in range(40):
        out: set[str] = set()
        for before, player, _action, events, after in random_steps_with_events(
            seed, FIVE[:4], {"play_for_places": True}
        ):
            assert after.phase != "play" or not out & set(GAME.to_act(after))
            names = kinds(events)
            if "out" not in names or "round_won" in names:
                continue
            out.add(player)
            seat = before.players.index(player)
            expected = next(p for p in (before.players[(seat + step) % 4] for step in range(1, 4)) if p not in out)
            assert GAME.to_act(after) == [expected]
            if "burned" in names:
                seen["burn"] += 1
                assert after.pile == []
            if "obligation_passed" in names:
                seen["three"] += 1
                assert GAME.view(after, None)["obligation"] == expected
    assert seen["burn"] >= 1


def test_play_for_places_continues_until_one_player_is_left():
    """LOP-A18 (L17.5): default: the round ends with the first player out; with `play_for_places`
    it continues until one player is left, and only the first out wins."""
    for options, places in (({}, 1), ({"play_for_places": True}, 3)):
        for seed in range(5):
            for _before, _player, _action, events, after in random_steps_with_events(seed, FIVE[:4], options):
                won = [event for event in events if event.kind == "round_won"]
                if won:
                    assert len(won[0].public["places"]) == places
                    assert won[0].public["player"] == won[0].public["places"][0]
                    assert sum(GAME.scores(after).values()) == 1


def test_dealer_opens_round_one_and_the_winner_opens_the_next():
    """LOP-A19 (L13.8, L13.9): the dealer opens round 1; the dealer rotates clockwise; the
    previous winner opens the next round."""
    for seed in range(6):
        steps = list(random_steps_with_events(seed, FIVE[:3], {}, rounds=2))
        first = steps[0][0]
        assert first.players[first.dealer] == first.players[first.starter]
        rounds = [after for _, _, _, events, after in steps if "dealt" in kinds(events)]
        second = rounds[0]
        assert second.round == 2 and second.dealer == (first.dealer + 1) % 3
        winner = next(e.public["player"] for _, _, _, events, _ in steps for e in events if e.kind == "round_won")
        assert second.players[second.starter] == winner
        ready = [after for _, _, _, events, after in steps if "play_started" in kinds(events)][1]
        assert GAME.to_act(ready) == [winner]


def test_a_used_face_down_position_is_refused():
    """Section 9: positions are fixed at the deal; a used position is refused."""
    found = 0
    for seed in range(60):
        for _before, _player, _action, _events, after in random_steps_with_events(seed, FIVE[:2], {}):
            if after.phase != "play":
                continue
            seat = after.turn
            row = after.face_down[seat]
            if not after.hands[seat] and not after.face_up[seat] and None in row:
                used = row.index(None)
                name = after.players[seat]
                assert refused(after, name, {"type": "flip", "position": used}).code == "position_used"
                found += 1
                break
        if found >= 3:
            break
    assert found >= 3
