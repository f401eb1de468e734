"""Lopti's card order and the legality of a play (docs/games/rules/lopti.md section 5.2, LOP-A1 to LOP-A10).

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


# How cards of one rank may go on the pile (`rank_mode`): in any number, or only matching.
ALL, MATCH = "all", "match"


def rank_mode(value: int, top: int, ten_on_seven: bool, sevens_stack_singly: bool) -> str | None:
    """How cards of `value` may go on a pile whose top is `top` with no 3 obligation pending:
    ALL (any number of them), MATCH (more than the previous play, or completing four), or None."""
    if top == SEVEN:
        if value == TEN:
            return ALL if ten_on_seven else None
        if value < SEVEN:
            return ALL
        if value == SEVEN:
            return ALL if sevens_stack_singly else MATCH
        return None
    if value == THREE or value == SEVEN or value == TEN:
        return ALL
    if value == TWO:
        return MATCH if top == TWO else ALL
    if value > top:
        return ALL
    if value == top:
        return MATCH
    return None


def matches_enough(count: int, last_play: int, run: int) -> bool:
    """Whether `count` cards of the top card's rank may go on it: more than the previous play
    (m = `last_play`), or completing all four (k = `run`, the run of that rank on top)."""
    return count > last_play or run + count == 4


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
    run of the top card's rank on top of the pile), as in section 5.2. Which ranks may go on the
    pile is `rank_mode`'s to say; what is left here is the 3 obligation and the reason."""
    if obligation:
        if rank != THREE:
            return ("obligation_pending", "A 3 obligation is on you: play one or more 3s, or take the pile.")
        return None
    if not pile:
        return None
    top = VALUE[pile[-1]]
    mode = rank_mode(rank, top, ten_on_seven, sevens_stack_singly)
    if mode is ALL:
        return None
    if mode is MATCH:
        return None if matches_enough(count, last_play, run) else _match_problem(last_play, run)
    if top == SEVEN:
        if rank == TEN:
            return ("ten_on_seven", "A 10 cannot follow a 7: play a 7 or lower, or take the pile.")
        return ("must_play_low", "After a 7 the next play must be 7 or lower; or take the pile.")
    return (
        "illegal_card",
        "Play a higher rank, match with more cards, a special card (2, 3, 7, 10), or take the pile.",
    )


def _match_problem(last_play: int, run: int) -> Problem:
    return (
        "match_needs_more",
        f"To match you must play more than {last_play} card(s), or complete all four "
        f"({4 - run} needed); or play higher, or take the pile.",
    )
