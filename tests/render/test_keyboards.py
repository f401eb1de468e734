"""Keyboards fit a thumb: one button per card, several of a rank chosen by tap, mark and ✔,
Draw / Take / Go out / Pass on rows of their own, at most eight rows, labels never cut mid-word,
red suits drawn red, and no symbol that phones lack."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.options import parse_options
from handlers.i18n import translator
from handlers.presentation.action_tree import ALONE, CARD, DONE
from handlers.presentation.games.lopti import MAX_BUTTON
from handlers.presentation.games.lopti import RENDERER as LOPTI
from handlers.presentation.render.hand import render_hand
from handlers.presentation.render.keyboard import MAX_PER_ROW, MAX_ROWS
from handlers.presentation.render.seat import seen_by
from tests.kadi.test_kadi_helpers import build_deck
from tests.render.playouts import LARGEST, new_table, play

EN = translator("en")
RED = ("♥", "♦")


def labels(markup) -> list[list[str]]:
    return [[button.text for button in row] for row in markup.inline_keyboard] if markup else []


def opened(table, game, state, player, node):
    seen = seen_by(table, game, state, player, EN)
    return render_hand(table, game, state, player, EN, (seen.keyboard, node.number))


def check_keyboard(table, game, state, player, language) -> None:
    _ = translator(language)
    seen = seen_by(table, game, state, player, _)
    nodes = [seen.tree.root] + [node for node in seen.tree.nodes if node.links and node.number > 0][:3]
    for node in nodes:
        text, markup = render_hand(table, game, state, player, _, (seen.keyboard, node.number))
        rows = labels(markup)
        assert len(rows) <= MAX_ROWS and all(len(row) <= MAX_PER_ROW for row in rows), rows
        shown = [label for row in rows for label in row]
        cards = [label for label, child in node.links if child.kind == CARD]
        assert len(cards) == len(set(cards)), f"a card has two buttons: {rows}"
        for label, child in node.links:
            if child.kind == ALONE:
                assert [label] in rows, f"{label!r} shares a row: {rows}"
        for label in shown + [text]:
            assert "🂠" not in label and "➕" not in label
            for suit in RED:
                assert label.count(suit) == label.count(suit + "\ufe0f"), f"{label!r} draws {suit} black"


@pytest.mark.parametrize("game", sorted(LARGEST))
@settings(deadline=None, max_examples=2, derandomize=True)
@given(seed=st.integers(min_value=0, max_value=10**6))
def test_every_keyboard_fits_a_thumb(game, seed):
    for index, frame in enumerate(play(game, LARGEST[game], seed, max_moves=200)):
        if frame.table.status != "playing" or index % 3:
            continue
        for player in frame.table.players:
            if frame.game.legal_actions(frame.state, player):
                check_keyboard(frame.table, frame.game, frame.state, player, random.Random(index).choice(["en", "sw"]))


def kadi_with(hands, start="6H"):
    table, game, _state = new_table("kadi", 3, 1, {"hand_size": 5})
    players = table.players
    deck = build_deck(players, players[-1], hands=dict(zip(players, hands)), start=start, hand_size=5)
    return table, game, game.new(players, parse_options(game.Options, {"hand_size": 5}), 1, players[-1], [deck])


def test_several_kadi_cards_of_a_rank_are_tapped_marked_and_confirmed():
    table, game, state = kadi_with([["5H", "5S", "5D", "5C", "KS"]])
    amina = table.players[0]
    seen = seen_by(table, game, state, amina, EN)
    root = labels(render_hand(table, game, state, amina, EN)[1])
    assert root[0] == ["5♥️"], "one button for the card that fits; the other fives join it"
    node = seen.tree.root
    for card in ("5♥️", "5♠", "5♦️", "5♣"):
        node = next(child for label, child in node.links if label == card)
        assert node.action is None, "a tap marks the card; nothing is played yet"
        text, markup = opened(table, game, state, amina, node)
        assert f"✅ {card}" in labels(markup)[0]
    assert [label for label, _child in node.links] == ["✔"], "the last five waits for ✔"
    assert node.links[0][1].action == {"type": "play", "cards": ["5H", "5S", "5D", "5C"]}
    assert "Chosen: 5♥️ 5♠ 5♦️ 5♣" in text


def test_unmarking_a_card_keeps_the_others_marked():
    table, game, state = kadi_with([["5H", "5S", "5D", "5C", "KS"]])
    amina = table.players[0]
    seen = seen_by(table, game, state, amina, EN)
    three = seen.tree.root
    for card in ("5♥️", "5♠", "5♦️"):
        three = next(child for label, child in three.links if label == card)
    unmark = seen.tree.nodes[dict(three.marks)["5♠"]]
    assert [label for label, _target in unmark.marks] == ["5♥️", "5♦️"]


def test_a_card_nothing_can_join_plays_at_once_and_play_and_call_is_one_button():
    table, game, state = kadi_with([["5H", "5S", "5D", "5C", "9H"]])
    amina = table.players[0]
    seen = seen_by(table, game, state, amina, EN)
    nine = next(child for label, child in seen.tree.root.links if label == "9♥️")
    assert nine.action == {"type": "play", "cards": ["9H"]} and not nine.links
    # Four fives leave one card: that play may call "Kadi Moja!" at once, from one button.
    rows = labels(render_hand(table, game, state, amina, EN)[1])
    assert ["📣 Play + Kadi Moja!"] in rows and sum(label.startswith("📣") for row in rows for label in row) == 1
    assert not any("+ 📣" in label for row in rows for label in row)


def test_kadi_draw_stands_on_its_own_row_and_the_prompt_offers_no_draw_it_has_not():
    table, game, state = kadi_with([["6S", "9H", "KC"]])
    amina = table.players[0]
    text, markup = render_hand(table, game, state, amina, EN)
    assert "Your turn: play a card." in text and "draw" not in text.split("play a card.")[1]
    table, game, state = kadi_with([["2S", "9C", "KC", "4S", "3C"]], start="6H")
    text, markup = render_hand(table, game, state, amina, EN)
    assert ["Draw"] in labels(markup) and "Your turn: nothing fits, so draw a card." in text


def test_euchre_keep_shows_all_ten_cards_in_hand_then_dummy_order():
    for frame in play("euchre3", 3, 4, max_moves=400):
        maker = next((p for p in frame.game.to_act(frame.state) if frame.state.phase == "keep"), None)
        if maker is None:
            continue
        view = frame.game.view(frame.state, maker)
        _text, markup = render_hand(frame.table, frame.game, frame.state, maker, EN)
        from handlers.presentation import cards as show

        expected = [show.card(c) for c in [*show.sort_hand(view["hand"]), *show.sort_hand(view["dummy"])]]
        shown = [label for row in labels(markup) for label in row]
        assert shown[:-1] == expected, "every card of the hand and the dummy from the first tap, in their order"
        # Then one press keeps the five strongest (what a timeout keeps); marking still offers any five.
        assert shown[-1].startswith("⏩ ")
        best = frame.game.timeout_actions(frame.state)[0]["cards"]
        node = next(
            child
            for label, child in seen_by(frame.table, frame.game, frame.state, maker, EN).tree.root.links
            if label == shown[-1]
        )
        assert not node.children and sorted(node.action["cards"]) == sorted(best)
        assert shown[-1] == "⏩ " + show.cards(node.action["cards"])
        assert "⏩ keeps your five strongest at once" in _text
        return
    pytest.fail("no keep phase in this match")


def test_a_big_lopti_hand_has_one_button_per_card_in_eight_rows():
    table, game, state = new_table("lopti", 5, 3)
    for player in table.players:  # the setup ends when everyone is ready
        state = game.advance(state, player, {"type": "ready"}).state
    turn = game.to_act(state)[0]
    seat = state.players.index(turn)
    deck = [rank + suit for rank in ("2", "4", "5", "6", "8", "9") for suit in "SHDC"] + ["QS"]
    state.hands[seat] = deck
    state.pile = []
    _text, markup = render_hand(table, game, state, turn, EN)
    rows = labels(markup)
    cards = [label for row in rows for label in row if label[0].isdigit() or label[0] in "JQKA"]
    assert len(cards) == 25 and len(set(cards)) == 25 and len(rows) <= MAX_ROWS, rows


def test_proposal_labels_are_cut_between_words():
    view = {"phase": "play", "players": ["1", "2"], "rules": [], "options": {"face_down_may_take": True}}
    for action in LOPTI.extra_actions(view, "1"):
        for language in ("en", "sw"):
            _ = translator(language)
            full = LOPTI.change_button_text(action["change"], _)
            label = LOPTI.change_button(action["change"], _)
            assert len(label) <= MAX_BUTTON
            if label != full:
                assert label.endswith("…") and full.startswith(label[:-1]) and full[len(label) - 1] == " ", (
                    label,
                    full,
                )


def test_confirm_and_back_share_the_last_row():
    table, game, state = kadi_with([["5H", "5S", "KS"]])
    amina = table.players[0]
    seen = seen_by(table, game, state, amina, EN)
    five = next(child for label, child in seen.tree.root.links if label == "5♥️")
    assert any(child.kind == DONE for child in five.children)
    assert labels(opened(table, game, state, amina, five)[1])[-1] == ["✔", "↩"]


def test_the_second_joker_can_join_the_first():
    table, game, state = kadi_with([["X", "X", "5H", "KS", "9C"]])
    amina = table.players[0]
    seen = seen_by(table, game, state, amina, EN)
    joker = next(child for label, child in seen.tree.root.links if label == "🃏")
    rows = labels(opened(table, game, state, amina, joker)[1])
    assert rows[0] == ["✅ 🃏", "🃏"] and rows[-1] == ["✔", "↩"]


def test_every_kadi_card_of_a_rank_plays_with_one_press():
    table, game, state = kadi_with([["5H", "5S", "5D", "5C", "KS"]])
    amina = table.players[0]
    seen = seen_by(table, game, state, amina, EN)
    shortcuts = {label: child for label, child in seen.tree.root.links if label.startswith("⏩")}
    # Only the 5♥️ fits the 6♥️: one button, the others in the hand's order, the last the new top.
    assert list(shortcuts) == ["⏩ 5♥️ 5♠ 5♣ 5♦️"]
    node = shortcuts["⏩ 5♥️ 5♠ 5♣ 5♦️"]
    assert not node.children and node.action == {"type": "play", "cards": ["5H", "5S", "5C", "5D"]}
    assert any("⏩ 5♥️ 5♠ 5♣ 5♦️" in row for row in labels(render_hand(table, game, state, amina, EN)[1]))


def test_a_kadi_pair_that_fits_either_way_gets_a_button_per_order():
    table, game, state = kadi_with([["6S", "6D", "KS", "9C", "2C"]])
    amina = table.players[0]
    seen = seen_by(table, game, state, amina, EN)
    shortcuts = {label: child.action["cards"] for label, child in seen.tree.root.links if label.startswith("⏩")}
    assert shortcuts == {"⏩ 6♠ 6♦️": ["6S", "6D"], "⏩ 6♦️ 6♠": ["6D", "6S"]}


def test_a_kadi_card_of_a_pair_plays_alone_with_one_tap():
    table, game, state = kadi_with([["5H", "5S", "KS", "9C", "2C"]])
    seen = seen_by(table, game, state, table.players[0], EN)
    five = next(child for label, child in seen.tree.root.links if label == "5♥️")
    assert five.action == {"type": "play", "cards": ["5H"]} and not five.links, "no ✔ to wait for: ⏩ plays the pair"
    pair = next(child for label, child in seen.tree.root.links if label == "⏩ 5♥️ 5♠")
    assert pair.action == {"type": "play", "cards": ["5H", "5S"]}


def test_a_kadi_hand_with_one_card_of_each_rank_has_no_shortcut():
    table, game, state = kadi_with([["6S", "7D", "KS", "9C", "2C"]])
    seen = seen_by(table, game, state, table.players[0], EN)
    assert not [label for label, _child in seen.tree.root.links if label.startswith("⏩")]


def lopti_turn_with(hand, pile=()):
    table, game, state = new_table("lopti", 3, 3)
    for player in table.players:  # the setup ends when everyone is ready
        state = game.advance(state, player, {"type": "ready"}).state
    turn = game.to_act(state)[0]
    state.hands[state.players.index(turn)] = list(hand)
    state.pile = list(pile)
    return table, game, state, turn


def test_every_lopti_card_of_a_rank_plays_with_one_press():
    table, game, state, turn = lopti_turn_with(["5H", "5S", "9C", "QS", "QD", "QC"])
    seen = seen_by(table, game, state, turn, EN)
    shortcuts = {label: child for label, child in seen.tree.root.links if label.startswith("⏩")}
    assert list(shortcuts) == ["⏩ 5♠ 5♥️", "⏩ Q♠ Q♣ Q♦️"], "one button per rank held twice or more"
    for node in shortcuts.values():
        assert not node.children, "it plays at once"
    assert sorted(shortcuts["⏩ Q♠ Q♣ Q♦️"].action["cards"]) == ["QC", "QD", "QS"]
    rows = labels(render_hand(table, game, state, turn, EN)[1])
    assert ["⏩ 5♠ 5♥️", "⏩ Q♠ Q♣ Q♦️"] in rows, "beside the single cards"
    # A card of a pair plays alone at once (⏩ plays both); of three, it marks and waits for ✔,
    # since two of them may go together.
    five = next(child for label, child in seen.tree.root.links if label == "5♠")
    assert five.action == {"type": "play", "cards": ["5S"]} and not five.links
    queen = next(child for label, child in seen.tree.root.links if label == "Q♠")
    assert queen.action is None and any(label == "Q♦️" for label, _child in queen.links)


def test_a_lopti_shortcut_only_for_a_legal_play_and_at_most_three():
    # Under a 9 the fives may not go: no ⏩ for them, nor for a rank held once.
    table, game, state, turn = lopti_turn_with(["5H", "5S", "9C", "KS", "KD"], pile=["9H"])
    seen = seen_by(table, game, state, turn, EN)
    assert [label for label, _child in seen.tree.root.links if label.startswith("⏩")] == ["⏩ K♠ K♦️"]
    # A big hand: the three lowest ranks get one, the cards keep five to a row.
    hand = [rank + suit for rank in ("4", "5", "6", "8", "9") for suit in "SH"]
    table, game, state, turn = lopti_turn_with(hand)
    seen = seen_by(table, game, state, turn, EN)
    assert [label for label, _child in seen.tree.root.links if label.startswith("⏩")] == [
        "⏩ 4♠ 4♥️",
        "⏩ 5♠ 5♥️",
        "⏩ 6♠ 6♥️",
    ]
    rows = labels(render_hand(table, game, state, turn, EN)[1])
    assert all(len(row) <= 5 for row in rows) and len(rows) <= MAX_ROWS, rows
    # No play is lost: a pair past the cap is marked card by card and played with ✔.
    four = next(child for label, child in seen.tree.root.links if label == "4♠")
    eight = next(child for label, child in seen.tree.root.links if label == "8♠")
    assert four.action == {"type": "play", "cards": ["4S"]} and not four.links
    both = next(child for label, child in eight.links if label == "8♥️")
    assert [child.action for label, child in both.links if label == "✔"] == [{"type": "play", "cards": ["8S", "8H"]}]


def test_the_euchre_dealer_picks_up_with_one_tap_on_the_card_to_discard():
    for frame in play("euchre3", 3, 1, max_moves=400):
        if frame.state.phase != "pickup":
            continue
        dealer = frame.game.to_act(frame.state)[0]
        view = frame.game.view(frame.state, dealer)
        text, markup = render_hand(frame.table, frame.game, frame.state, dealer, EN)
        seen = seen_by(frame.table, frame.game, frame.state, dealer, EN)
        from handlers.presentation import cards as show

        up = show.card(view["up_card"])
        taps = {label: child.action for label, child in seen.tree.root.links if child.kind == CARD}
        assert sorted(taps) == sorted(show.card(card) for card in [*view["hand"], view["up_card"]])
        assert all(
            action == {"type": "pick_up", "discard": code}
            for code, action in (
                (next(c for c in [*view["hand"], view["up_card"]] if show.card(c) == label), action)
                for label, action in taps.items()
            )
        )
        assert f"to pick up {up}, tap the card you discard for it" in text
        assert len(labels(markup)) <= 3, "six cards, then Leave it"
        return
    pytest.fail("no pick-up in this match")
