"""Which plays are legal now: the legality summary of section 5 of docs/games/rules/kadi.md, made executable.

`legal_plays` enumerates every legal play in canonical order (first card, the middle cards in
deck order, last card); `play_problem` judges one proposed play and says why it is refused.
Both read the same small predicates, so what is offered and what is accepted cannot drift.
`offered_actions` turns the legal plays and the other moves into the actions `legal_actions`
lists.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from engine.core.cards import JOKER
from engine.core.protocol import CLOCK, Action, Refused
from engine.kadi.actions import (
    ACCEPT,
    CALL,
    DRAW,
    HIDE,
    PAIR,
    PASS,
    SINGLE,
    TIMEOUT,
    UNHIDE,
    add_play,
)
from engine.kadi.cards import (
    ALL_CARDS,
    DECK_INDEX,
    MATES,
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
    if not state.rules.card_below:
        return None
    for card in reversed(state.discard):
        if card != JOKER:
            return card
    return None


def openers(state: KadiState) -> frozenset[str]:
    """The cards that may open a play now (section 5, rules 1-5)."""
    if state.pen_amount:
        if state.rules.mixed_stacking:
            return STACK_ANSWERS["mixed"]
        kind = state.pen_kind
        assert kind is not None  # a penalty has its kind
        return STACK_ANSWERS[kind]
    command = state.command
    if command is not None:
        return POWER_CARDS if command == "power" else OPENERS_FOR_SUIT[command]
    top = state.discard[-1]
    if top != JOKER:  # effective_top's usual case, without the call
        return OPENERS_ON[top]
    effective = effective_top(state)
    return ALL_CARDS if effective is None else OPENERS_ON[effective]


def finish_refusal(state: KadiState, player: str, rank: str) -> Refused | None:
    """Why playing every visible card, all of `rank`, is not allowed now (KAD-A17/A18), or None."""
    if rank in POWER_RANKS:
        if state.rules.power_finish_forbidden:
            return Refused(
                "power_finish_forbidden",
                "You cannot play a power card as your last card at this table; draw instead.",
            )
        return None
    if state.rules.niko_kadi_ahead and player not in state.announced:
        return Refused(
            "not_announced",
            "Announce 'Niko Kadi' at the end of the turn before you go out; play something else or draw.",
        )
    return None


_rank_of = RANK.__getitem__


def _firsts(state: KadiState, hand: list[str]) -> list[str]:
    """The cards of `hand` that may open a play, in hand order, the two jokers counted once."""
    firsts = list(filter(openers(state).__contains__, hand))
    if firsts.count(JOKER) > 1:  # the two jokers are one card as far as plays go
        firsts = list(dict.fromkeys(firsts))
    return firsts


def legal_plays(state: KadiState, player: str) -> list[list[str]]:
    """Every legal play of `player`'s visible hand, canonical order, no duplicates."""
    hand = state.hands[player]
    firsts = _firsts(state, hand)
    if not firsts:
        return []
    ranks = list(map(_rank_of, hand))
    plays: list[list[str]] = []
    for first in firsts:
        _plays_opening_with(state, player, hand, ranks, first, plays)
    drawn = state.drawn
    if drawn is not None:
        plays = [play for play in plays if drawn in play]
    return plays


def _plays_opening_with(
    state: KadiState, player: str, hand: list[str], ranks: list[str], first: str, plays: list[list[str]]
) -> None:
    """Append every legal play that opens with `first`; `ranks` are the ranks of `hand`."""
    rank = RANK[first]
    together = ranks.count(rank)
    size = len(hand)
    if together == 1:  # no other card of its rank: the single card only
        if size != 1 or finish_refusal(state, player, rank) is None:
            plays.append([first])
    elif together == 2:  # a pair: the card alone, or both (unless that is a refused finish)
        at = ranks.index(rank)
        other = hand[ranks.index(rank, at + 1)] if hand[at] == first else hand[at]
        plays.append([first])
        if size != 2 or finish_refusal(state, player, rank) is None:
            plays.append([first, other])
    else:
        _group_plays(state, player, hand, first, rank, plays)


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


def offered_actions(state: KadiState, player: str) -> list[Action]:
    """What `legal_actions` lists for `player`: the turn's plays in canonical order, then draw
    or pass, hide or unhide; then the call, an acceptance, and accusations.

    One function for the player to move (nearly every call), with the usual cases first."""
    if player != state.turn or state.phase != "play":
        return _waiting_actions(state, player)
    rules = state.rules
    hand = state.hands[player]
    size = len(hand)
    drawn = state.drawn
    niko = rules.niko_kadi_ahead
    actions: list[Action] = []
    # A play that leaves cards comes with "play + call" under Niko Kadi or when it leaves one.
    singles = SINGLE[niko or size == 2]
    if size < 2:  # every play goes out
        _add_plays(actions, legal_plays(state, player), size, niko, rules.power_finish_forbidden)
    elif drawn is None:
        # The usual turn: most cards that fit are alone of their rank in the hand or one of a
        # pair, and their offered actions are prebuilt.
        ok = openers(state)
        ranks = None
        jokers_done = False
        for first in hand:
            if first not in ok:
                continue
            mates = MATES[first]
            if mates.isdisjoint(hand):
                actions += singles[first]
                continue
            mates = mates.intersection(hand)
            if size > 3 and len(mates) == 1 and first != JOKER:  # a pair; both plays leave 2+
                actions += singles[first]
                (mate,) = mates
                actions += PAIR[niko][first, mate]
                continue
            if first == JOKER:
                if jokers_done:  # the two jokers open the same plays
                    continue
                jokers_done = True
            if ranks is None:
                ranks = list(map(_rank_of, hand))
            plays: list[list[str]] = []
            _plays_opening_with(state, player, hand, ranks, first, plays)
            _add_plays(actions, plays, size, niko, rules.power_finish_forbidden)
    elif MATES[drawn].isdisjoint(hand):
        # After a draw only plays with the drawn card are legal: alone of its rank, it is one.
        if drawn in openers(state):
            actions += singles[drawn]
    else:
        _add_plays(actions, legal_plays(state, player), size, niko, rules.power_finish_forbidden)
    if drawn is not None:
        actions.append(PASS)
    elif state.pen_amount or not actions or rules.voluntary_draw:  # no action yet: no play
        actions.append(DRAW)
    if rules.hiding and drawn is None and not state.hide_used:
        if state.hidden[player] is not None:
            actions.append(UNHIDE)
        elif size >= 3:
            actions += [HIDE[card] for card in dict.fromkeys(hand)]
    # Skips can bring the turn back to a player whose call window is still open.
    if may_call(state, player):
        actions.append(CALL)
    if rules.hiding:
        actions += _accusations(state, player)
    return actions


def may_call(state: KadiState, player: str) -> bool:
    """Whether "Kadi Moja!" (or, under Niko Kadi, the first announcement) is due from `player` now."""
    return state.window == player and (
        state.call_due or (state.rules.niko_kadi_ahead and player not in state.announced)
    )


def _waiting_actions(state: KadiState, player: str) -> list[Action]:
    """What a player may do out of turn (or the clock, or anyone in a challenge window)."""
    phase = state.phase
    if phase == "over":
        return []
    if player == CLOCK:
        return [TIMEOUT]
    if player not in state.seats:
        return []
    rules = state.rules
    actions: list[Action] = []
    if may_call(state, player):
        actions.append(CALL)
    if phase == "challenge" and player != state.provisional and player not in state.accepted:
        actions.append(ACCEPT)
    if rules.hiding:
        actions += _accusations(state, player)
    return actions


def _accusations(state: KadiState, player: str) -> list[Action]:
    return [{"type": "accuse", "target": p} for p in state.seats if p != player]


def _add_plays(actions: list[Action], plays: list[list[str]], size: int, niko: bool, power_forbidden: bool) -> None:
    """Append the offered forms of each play of a hand of `size` cards.

    "Play + call" is offered where the call may be due right after the play: when it leaves
    one card, goes out on a power card (which draws one, KAD-A18), or under "Niko Kadi".
    """
    for cards in plays:
        left = size - len(cards)
        if left > 1 and not niko:  # the usual play: no call to offer with it
            add_play(actions, cards, with_call=False)
            continue
        wins = left == 0 and RANK[cards[0]] not in POWER_RANKS
        add_play(actions, cards, not wins and (niko or left == 1 or (left == 0 and not power_forbidden)))


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
            return Refused(
                "power_card_required", "The Jack demands a power card (2, 7, 8, J or Joker); play one or draw."
            )
        if state.command is not None:
            return Refused("must_follow_command", f"The Jack named {state.command}: play that suit or a J, or draw.")
        return Refused("illegal_card", "Play a card of the same suit or number as the top card, a J or a Joker.")
    if len(cards) == len(hand):
        return finish_refusal(state, player, rank)
    return None
