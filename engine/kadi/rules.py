"""Which plays are legal now: the legality summary of section 5 of rules/kadi.md, made executable.

`legal_plays` enumerates every legal play in canonical order (first card, the middle cards in
deck order, last card); `play_problem` judges one proposed play and says why it is refused.
Both read the same small predicates, so what is offered and what is accepted cannot drift.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from engine.core.cards import JOKER
from engine.core.protocol import Refused
from engine.kadi.cards import (
    ALL_CARDS,
    DECK_INDEX,
    OPENERS_FOR_SUIT,
    OPENERS_ON,
    POWER_CARDS,
    POWER_RANKS,
    RANK,
    STACK_ANSWERS,
)
from engine.kadi.state import KadiState

def effective_top(state: KadiState) -> str | None:
    """The card a play must match, or None when anything matches (after a Joker, KAD-A10)."""
    top = state.discard[-1]
    if top != JOKER:
        return top
    if state.options.after_joker == "any":
        return None
    for card in reversed(state.discard):
        if card != JOKER:
            return card
    return None


def openers(state: KadiState) -> frozenset[str]:
    """The cards that may open a play now (section 5, rules 1-5)."""
    if state.pen_amount:
        return STACK_ANSWERS["mixed" if state.options.mixed_stacking else state.pen_kind]  # type: ignore[index]
    command = state.command
    if command is not None:
        return POWER_CARDS if command == "power" else OPENERS_FOR_SUIT[command]
    top = state.discard[-1]
    if top != JOKER:  # effective_top's usual case, without the call
        return OPENERS_ON[top]
    top = effective_top(state)
    return ALL_CARDS if top is None else OPENERS_ON[top]


def finish_refusal(state: KadiState, player: str, rank: str) -> Refused | None:
    """Why playing every visible card, all of `rank`, is not allowed now (KAD-A17/A18), or None."""
    if rank in POWER_RANKS:
        if state.options.power_finish == "forbidden":
            return Refused(
                "power_finish_forbidden",
                "You cannot play a power card as your last card at this table; draw instead.",
            )
        return None
    if state.options.niko_kadi_ahead and player not in state.announced:
        return Refused(
            "not_announced",
            "Announce 'Niko Kadi' at the end of the turn before you go out; play something else or draw.",
        )
    return None


_rank_of = RANK.__getitem__


def legal_plays(state: KadiState, player: str) -> list[list[str]]:
    """Every legal play of `player`'s visible hand, canonical order, no duplicates."""
    hand = state.hands[player]
    firsts = list(filter(openers(state).__contains__, hand))
    if not firsts:
        return []
    if firsts.count(JOKER) > 1:  # the two jokers are one card as far as plays go
        firsts = list(dict.fromkeys(firsts))
    size = len(hand)
    ranks = list(map(_rank_of, hand))
    plays: list[list[str]] = []
    append = plays.append
    for first in firsts:
        rank = RANK[first]
        together = ranks.count(rank)
        if together == 1:  # no other card of its rank: the single card only
            if size == 1 and finish_refusal(state, player, rank) is not None:
                continue
            append([first])
        elif together == 2:  # a pair: the card alone, or both (unless that is a refused finish)
            at = ranks.index(rank)
            other = hand[ranks.index(rank, at + 1)] if hand[at] == first else hand[at]
            append([first])
            if size != 2 or finish_refusal(state, player, rank) is None:
                append([first, other])
        else:
            _group_plays(state, player, hand, first, rank, plays)
    drawn = state.drawn
    if drawn is not None:
        plays = [play for play in plays if drawn in play]
    return plays


def has_play(state: KadiState, player: str) -> bool:
    """Whether `legal_plays(state, player)` is not empty, for a state with no drawn card."""
    hand = state.hands[player]
    ok = openers(state)
    for card in hand:
        if card in ok:
            # That card alone is a play, unless it is the whole hand and going out is refused.
            return len(hand) > 1 or finish_refusal(state, player, RANK[card]) is None
    return False


def drawn_playable(state: KadiState, player: str) -> bool:
    """Whether `legal_plays(state, player)` is not empty; `state.drawn` was just drawn."""
    drawn = state.drawn
    hand = state.hands[player]
    ok = openers(state)
    if drawn in ok and len(hand) > 1:
        return True  # the drawn card alone is a play (not a finish)
    rank = RANK[drawn]  # type: ignore[index]
    for card in hand:
        if card in ok and RANK[card] == rank:
            return bool(legal_plays(state, player))
    return False  # no card of the drawn card's rank fits, so no play can include it


def _group_plays(state: KadiState, player: str, hand: list[str], first: str, rank: str, plays: list[list[str]]) -> None:
    """Append every play that opens with `first` and adds other cards of its rank."""
    group = [card for card in hand if RANK[card] == rank]
    whole_hand_blocked = len(group) == len(hand) and finish_refusal(state, player, rank) is not None
    others = group
    others.remove(first)
    others.sort(key=DECK_INDEX.__getitem__)
    for count in range(len(others) + 1):
        if whole_hand_blocked and count == len(others):
            continue
        for chosen in dict.fromkeys(combinations(others, count)):
            if not chosen:
                plays.append([first])
                continue
            for last in dict.fromkeys(chosen):
                middle = list(chosen)
                middle.remove(last)
                plays.append([first, *middle, last])


def play_problem(state: KadiState, player: str, cards: list[str]) -> Refused | None:
    """Why `player` may not play `cards` now (turn and phase already checked), or None."""
    if not cards:
        return Refused("empty_play", "Name at least one card to play.")
    hand = state.hands[player]
    if len(cards) == 1:
        missing = None if cards[0] in hand else cards[0]
    else:
        held = Counter(hand)
        missing = next((card for card, count in Counter(cards).items() if held[card] < count), None)
    if missing is not None:
        if state.hidden.get(player) == missing:
            return Refused("card_hidden", "Your hidden card does not exist for play; unhide it on a later turn.")
        return Refused("not_in_hand", f"You do not hold {missing}; play a card from your hand.")
    if state.drawn is not None and state.drawn not in cards:
        return Refused("must_play_drawn", "After drawing you may only play the drawn card (with its rank) or pass.")
    rank = RANK[cards[0]]
    if len(cards) > 1 and any(RANK[card] != rank for card in cards):
        return Refused("mixed_ranks", "Cards played together must all have the same number.")
    if cards[0] not in openers(state):
        if state.pen_amount:
            return Refused(
                "penalty_pending",
                f"A draw-{state.pen_amount} is pending: add a matching penalty card or draw the cards.",
            )
        if state.command == "power":
            return Refused("power_card_required", "The Jack demands a power card (2, 7, 8, J or Joker); play one or draw.")
        if state.command is not None:
            return Refused("must_follow_command", f"The Jack named {state.command}: play that suit or a J, or draw.")
        return Refused("illegal_card", "Play a card of the same suit or number as the top card, a J or a Joker.")
    if len(cards) == len(hand):
        return finish_refusal(state, player, rank)
    return None
