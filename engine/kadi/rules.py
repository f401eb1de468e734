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


def legal_plays(state: KadiState, player: str) -> list[list[str]]:
    """Every legal play of `player`'s visible hand, canonical order, no duplicates."""
    hand = state.hands[player]
    ok = openers(state)
    firsts = [card for card in hand if card in ok]
    if not firsts:
        return []
    size = len(hand)
    ranks = {RANK[card] for card in hand}
    if len(ranks) == size:  # no two cards share a rank: single-card plays only
        if size == 1 and finish_refusal(state, player, RANK[hand[0]]) is not None:
            return []
        plays = [[card] for card in firsts]
    else:
        plays = _multi_card_plays(state, player, hand, firsts)
    drawn = state.drawn
    if drawn is not None:
        plays = [play for play in plays if drawn in play]
    return plays


def _multi_card_plays(state: KadiState, player: str, hand: list[str], firsts: list[str]) -> list[list[str]]:
    groups: dict[str, list[str]] = {}
    for card in hand:
        groups.setdefault(RANK[card], []).append(card)
    plays: list[list[str]] = []
    size = len(hand)
    for first in dict.fromkeys(firsts):
        group = groups[RANK[first]]
        whole_hand_blocked = len(group) == size and finish_refusal(state, player, RANK[first]) is not None
        others = list(group)
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
    return plays


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
    if any(RANK[card] != rank for card in cards):
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
