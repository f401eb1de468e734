"""Lopti's card order and the legality of a play (spec section 5.2, LOP-A1 to LOP-A10).

All functions are pure. A "problem" is a (code, message) pair, or None when the play is legal.
"""

from __future__ import annotations

from engine.core.cards import RANK_VALUE, SUITS, deck_52

Problem = tuple[str, str] | None

DECK: tuple[str, ...] = tuple(deck_52())
# Natural rank 2..14 (ace high, LOP-A1) and suit order S, H, D, C of every card code.
VALUE: dict[str, int] = {card: RANK_VALUE[card[:-1]] for card in DECK}
SUIT_ORDER: dict[str, int] = {card: SUITS.index(card[-1]) for card in DECK}
SORT_KEY: dict[str, int] = {card: VALUE[card] * 4 + SUIT_ORDER[card] for card in DECK}

TWO, THREE, SEVEN, TEN = 2, 3, 7, 10


def sort_cards(cards: list[str]) -> list[str]:
    """Lowest natural rank first, ties by suit order S, H, D, C."""
    return sorted(cards, key=SORT_KEY.__getitem__)


def lowest_card(cards: list[str]) -> str:
    return min(cards, key=SORT_KEY.__getitem__)


def play_problem(
    rank: int,
    count: int,
    pile: list[str],
    last_play: int,
    run: int,
    obligation: bool,
    sevens_stack_singly: bool,
    ten_on_seven: bool,
) -> Problem:
    """Why `count` cards of natural rank `rank` may not be played now (None: legal).

    `last_play` is m (the size of the previous play on the pile), `run` is k (the length of the
    run of the top card's rank on top of the pile), as in section 5.2.
    """
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
    return ("illegal_card", "Play a higher rank, match with more cards, a special card (2, 3, 7, 10), or take the pile.")


def _match_problem(last_play: int, run: int) -> Problem:
    return (
        "match_needs_more",
        f"To match you must play more than {last_play} card(s), or complete all four "
        f"({4 - run} needed); or play higher, or take the pile.",
    )
