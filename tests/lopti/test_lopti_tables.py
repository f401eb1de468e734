"""The precomputed tables behind `legal_actions` and the check of a play agree with section 5.2,
stated here plainly (`reference_play_problem`), in every situation, card for card; so does
`rules.play_problem`, which says why a play is refused."""

from __future__ import annotations

from itertools import combinations

import pytest

from engine.core.cards import SUITS
from engine.lopti import GAME
from engine.lopti.actions import COMBO, FOLLOW, MATCH_SIZES, PLAYS, PLAYS_CACHE_SIZE, _plays
from engine.lopti.rules import DECK, SEVEN, TEN, THREE, TWO, VALUE, play_problem


def reference_play_problem(rank, count, pile, last_play, run, obligation, sevens_stack_singly, ten_on_seven):
    """Section 5.2 case by case: why `count` cards of `rank` may not be played now (None: legal)."""
    if obligation:
        if rank != THREE:
            return ("obligation_pending", "A 3 obligation is on you: play one or more 3s, or take the pile.")
        return None
    if not pile:
        return None
    top = VALUE[pile[-1]]
    if top == SEVEN:
        if rank == TEN:
            if ten_on_seven:
                return None
            return ("ten_on_seven", "A 10 cannot follow a 7: play a 7 or lower, or take the pile.")
        if rank > SEVEN:
            return ("must_play_low", "After a 7 the next play must be 7 or lower; or take the pile.")
        if rank == SEVEN and not sevens_stack_singly and not (count > last_play or run + count == 4):
            return _match_problem(last_play, run)
        return None
    if rank == THREE or rank == SEVEN or rank == TEN:
        return None
    if rank == TWO:
        if top == TWO and not (count > last_play or run + count == 4):
            return _match_problem(last_play, run)
        return None
    if rank > top:
        return None
    if rank == top:
        if count > last_play or run + count == 4:
            return None
        return _match_problem(last_play, run)
    return (
        "illegal_card",
        "Play a higher rank, match with more cards, a special card (2, 3, 7, 10), or take the pile.",
    )


def _match_problem(last_play, run):
    return (
        "match_needs_more",
        f"To match you must play more than {last_play} card(s), or complete all four "
        f"({4 - run} needed); or play higher, or take the pile.",
    )


def table_allows(top: str, value: int, count: int, mask: int, last_play: int, run: int, options) -> bool:
    """The check `Lopti._play` makes for a listed play on a pile topped by `top`."""
    any_number, match, _ = FOLLOW[options][top]
    return bool(mask & any_number or mask & match and MATCH_SIZES[last_play][run] >> count & 1)


@pytest.mark.parametrize("options", sorted(FOLLOW))
def test_follow_and_match_sizes_agree_with_play_problem(options):
    ten_on_seven, sevens_stack_singly = options
    for top in DECK:
        for cards, (value, count, mask) in COMBO.items():
            for last_play in range(1, 5):
                for run in range(1, 4):
                    problem = reference_play_problem(
                        value, count, [top], last_play, run, False, sevens_stack_singly, ten_on_seven
                    )
                    assert table_allows(top, value, count, mask, last_play, run, options) == (problem is None), (
                        top,
                        cards,
                        last_play,
                        run,
                        options,
                    )


@pytest.mark.parametrize("options", sorted(FOLLOW))
def test_play_problem_gives_the_reference_answer_and_reason(options):
    ten_on_seven, sevens_stack_singly = options
    for pile in ([], *([top] for top in DECK)):
        for value in range(2, 15):
            for count in range(1, 5):
                for last_play in range(0, 5):
                    for run in range(0, 4):
                        for obligation in (False, True):
                            args = (value, count, pile, last_play, run, obligation, sevens_stack_singly, ten_on_seven)
                            assert play_problem(*args) == reference_play_problem(*args), args


def test_combo_lists_every_one_rank_play_in_suit_order():
    by_value = {value: [card for card in DECK if VALUE[card] == value] for value in range(2, 15)}
    expected = {}
    for value, cards in by_value.items():
        cards.sort(key=lambda card: SUITS.index(card[-1]))
        for size in range(1, 5):
            for combo in combinations(cards, size):
                expected[combo] = (value, size)
    assert {cards: known[:2] for cards, known in COMBO.items()} == expected


def test_plays_cache_is_bounded_and_rebuilds_what_it_dropped():
    key = next(iter(PLAYS)) if PLAYS else 1
    listed = PLAYS[key]
    for filler in range(PLAYS_CACHE_SIZE + 1):
        PLAYS[1 << 52 | filler]  # noqa: B018 - fills the cache past its bound
    assert len(PLAYS) <= PLAYS_CACHE_SIZE
    assert PLAYS[key] == listed == _plays(key)


def test_a_vote_on_a_play_option_changes_the_follow_table():
    state = GAME.new(["amina", "baraka"], GAME.Options(), 3)
    assert state.follow is FOLLOW[False, False]
    loaded = GAME.load(GAME.dump(state) | {"options": {**state.options, "ten_on_seven": True}})
    assert loaded.follow is FOLLOW[True, False]
    result = GAME.apply(
        loaded,
        "amina",
        {"type": "propose", "change": {"option": "sevens_stack_singly", "value": True}, "starts": "now"},
    )
    for player in ("amina", "baraka"):
        result = GAME.apply(result.state, player, {"type": "vote", "yes": True})
    assert result.state.options["sevens_stack_singly"] is True and result.state.follow is FOLLOW[True, True]
    assert loaded.follow is FOLLOW[True, False]
