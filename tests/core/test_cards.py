"""The shared card notation of docs/REPLAY.md."""

from collections import Counter

import pytest

from engine.core.cards import (
    CardError,
    deck_24,
    deck_32,
    deck_52,
    deck_54,
    deck_104,
    format_card,
    parse_card,
)


@pytest.mark.parametrize(("written", "code"), [("10h", "10H"), ("qs", "QS"), (" AC ", "AC"), ("x", "X"), ("2D", "2D")])
def test_notation_is_case_insensitive_on_input_and_upper_case_on_output(written, code):
    assert parse_card(written) == code


@pytest.mark.parametrize("bad", ["1H", "11S", "HH", "10", "", "JJ", "XX", "10HH", None, 7])
def test_a_code_outside_the_notation_is_refused(bad):
    with pytest.raises(CardError):
        parse_card(bad)


def test_cards_show_with_suit_symbols_and_a_joker_face():
    assert [format_card(code) for code in ("10H", "QS", "AD", "7C", "X")] == ["10♥", "Q♠", "A♦", "7♣", "🃏"]


@pytest.mark.parametrize(
    ("deck", "size", "distinct"),
    [(deck_24, 24, 24), (deck_32, 32, 32), (deck_52, 52, 52), (deck_54, 54, 53), (deck_104, 104, 52)],
)
def test_decks_hold_the_right_cards(deck, size, distinct):
    cards = deck()
    assert len(cards) == size
    assert len(set(cards)) == distinct
    assert all(parse_card(card) == card for card in cards)


def test_two_jokers_are_identical_and_two_packs_double_every_card():
    assert Counter(deck_54())["X"] == 2
    assert set(Counter(deck_104()).values()) == {2}


def test_euchre_packs_start_at_nine_and_seven():
    assert {card[:-1] for card in deck_24()} == {"9", "10", "J", "Q", "K", "A"}
    assert {card[:-1] for card in deck_32()} == {"7", "8", "9", "10", "J", "Q", "K", "A"}
