"""The moves of Euchre-3: one function per action, each changing the state it is given.

Each `do_*` function gets the state to change (the game's `advance` passes the caller's own
state; `apply` passes a copy), the acting seat and the canonical action; it returns the events,
or a `Refused`. Checks come first, changes after, so a refusal never leaves anything half-done
and the state is then exactly as it was.
"""

from __future__ import annotations

from itertools import filterfalse

from engine.core.cards import SUITS
from engine.core.fast import event
from engine.core.protocol import Event, Refused
from engine.euchre3.dealing import deal
from engine.euchre3.ranking import (
    DECK_SETS,
    EFFECTIVE_SUIT,
    TRICK_VALUE,
    legal_plays,
    suit_of,
)
from engine.euchre3.scoring import hand_points, match_winners
from engine.euchre3.state import (
    BID2,
    DEFEND,
    KEEP,
    LEFT,
    MAKER_CHOICE,
    OVER,
    PICKED_UP,
    PICKUP,
    PLAY,
    TAKEN,
    TURNED_DOWN,
    Euchre3State,
)

ACCEPT_LABELS = ("order_up", "assist", "accept")  # EU3-A2: left, opposite, dealer


def accept_label(state: Euchre3State, seat: int) -> str:
    return ACCEPT_LABELS[(seat - state.dealer - 1) % 3]


def _name(state: Euchre3State, seat: int) -> str:
    return state.players[seat]


def _replace_hand(state: Euchre3State, seat: int, hand: tuple[str, ...]) -> None:
    hands = list(state.hands)
    hands[seat] = hand
    state.hands = tuple(hands)


def _without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    """`cards` (all different, `card` among them) without `card`, order kept."""
    index = cards.index(card)
    return cards[:index] + cards[index + 1 :]


def _add_discards(state: Euchre3State, seat: int, cards: tuple[str, ...]) -> None:
    discards = list(state.discards)
    discards[seat] = discards[seat] + cards
    state.discards = tuple(discards)


def card_problem(state: Euchre3State, card: object, holding: tuple[str, ...]) -> Refused | None:
    """Refusal for a card that is not in this game's deck or not held; None if it is held."""
    if isinstance(card, str) and card in holding:
        return None
    return not_held(state, card)


def not_held(state: Euchre3State, card: object) -> Refused:
    """Refusal for a card that is not held: not a card, not of this deck, or someone else's."""
    if not isinstance(card, str):
        return Refused("not_a_card", "Give a card code such as JH.")
    if card not in DECK_SETS[state.options.deck]:
        return Refused(
            "not_in_deck",
            f"{card} is not a card of this {state.options.deck}-card deck.",
        )
    return Refused("not_in_hand", f"You do not hold {card}; choose one of your own cards.")


def allowed_suits(state: Euchre3State) -> tuple[str, ...]:
    """Suits that may be named in round two (EU3-A5)."""
    if state.options.turned_down_suit:
        return SUITS
    turned = suit_of(state.up_card)
    return tuple(suit for suit in SUITS if suit != turned)


def dealer_is_stuck(state: Euchre3State, seat: int) -> bool:
    return state.options.stick_the_dealer and seat == state.dealer


def lone_defence_possible(state: Euchre3State) -> bool:
    mode = state.options.lone_defenders
    return mode == "allowed" or (mode == "vs_lone_maker" and bool(state.maker_alone))


# ----- bidding ------------------------------------------------------------------------------
def do_bid1_pass(state: Euchre3State, seat: int, action: dict) -> list[Event]:
    events = [event("passed", {"player": _name(state, seat), "bidding_round": 1})]
    if seat == state.dealer:  # E13/E14: everyone passed, the up-card is turned down
        state.phase = BID2
        state.up_status = TURNED_DOWN
        state.turn = (state.dealer + 1) % 3
        events.append(event("up_card_turned_down", {"card": state.up_card}))
    else:
        state.turn = (seat + 1) % 3
    return events


def do_accept(state: Euchre3State, seat: int, action: dict) -> list[Event]:
    trump = suit_of(state.up_card)
    state.trump = trump
    state.maker = seat
    events = [
        event(
            "trump_made",
            {
                "player": _name(state, seat),
                "trump": trump,
                "bidding_round": 1,
                "label": accept_label(state, seat),
            },
        )
    ]
    if seat == state.dealer:  # E11/EU3-A4: the up-card joins the dealer-maker's hand
        _replace_hand(state, seat, state.hands[seat] + (state.up_card,))
        state.kitty = state.kitty[1:]
        state.up_status = TAKEN
        events.append(event("took_up_card", {"player": _name(state, seat), "card": state.up_card}))
        state.phase = MAKER_CHOICE
        state.turn = seat
    else:  # E12/EU3-A3: the dealer may pick the up-card up
        state.phase = PICKUP
        state.turn = state.dealer
    return events


def do_pick_up(state: Euchre3State, seat: int, action: dict) -> list[Event] | Refused:
    discard = action.get("discard")
    six = state.hands[seat] + (state.up_card,)
    if not isinstance(discard, str) or discard not in six:
        return not_held(state, discard)
    _replace_hand(state, seat, _without(six, discard))
    _add_discards(state, seat, (discard,))
    state.kitty = state.kitty[1:]
    state.up_status = PICKED_UP
    events = [
        event(
            "picked_up",
            {"player": _name(state, seat), "card": state.up_card},
            {_name(state, seat): {"discard": discard}},
        )
    ]
    return events + _to_maker(state)


def do_leave(state: Euchre3State, seat: int, action: dict) -> list[Event] | Refused:
    if state.options.dealer_must_pick_up:
        return Refused(
            "must_pick_up",
            "At this table the dealer must pick up: send pick_up with a card to discard.",
        )
    state.up_status = LEFT
    return [event("left_up_card", {"player": _name(state, seat), "card": state.up_card})] + _to_maker(state)


def _to_maker(state: Euchre3State) -> list[Event]:
    state.phase = MAKER_CHOICE
    state.turn = state.maker
    return []


def do_name(state: Euchre3State, seat: int, action: dict) -> list[Event] | Refused:
    suit = action.get("suit")
    if suit not in SUITS:
        return Refused("unknown_suit", "Name a suit: S, H, D or C.")
    if suit not in allowed_suits(state):
        return Refused("turned_down_suit", f"{suit} was turned down; name another suit or pass.")
    state.trump = suit
    state.maker = seat
    state.phase = MAKER_CHOICE
    state.turn = seat
    return [
        event(
            "trump_made",
            {
                "player": _name(state, seat),
                "trump": suit,
                "bidding_round": 2,
                "label": "name",
            },
        )
    ]


def do_bid2_pass(state: Euchre3State, seat: int, action: dict) -> list[Event] | Refused:
    if dealer_is_stuck(state, seat):
        return Refused("dealer_must_name", "Stick the dealer: you must name a suit.")
    events = [event("passed", {"player": _name(state, seat), "bidding_round": 2})]
    if seat != state.dealer:
        state.turn = (seat + 1) % 3
        return events
    # E16/EU3-A13: thrown in; the next player deals a new hand.
    next_dealer = (state.dealer + 1) % 3
    events.append(
        event(
            "thrown_in",
            {"round": state.round, "next_dealer": _name(state, next_dealer)},
        )
    )
    events.append(deal(state, state.round + 1, next_dealer))
    return events


# ----- the maker and the dummy --------------------------------------------------------------
def do_maker_alone(state: Euchre3State, seat: int, action: dict) -> list[Event] | Refused:
    hand = state.hands[seat]
    discard = action.get("discard")
    private = {}
    if len(hand) == 6:
        if discard is None:
            return Refused(
                "discard_required",
                "You hold six cards: go alone with a card to discard.",
            )
        problem = card_problem(state, discard, hand)
        if problem is not None:
            return problem
        _replace_hand(state, seat, _without(hand, discard))
        _add_discards(state, seat, (discard,))
        private = {_name(state, seat): {"discard": discard}}
    elif discard is not None:
        return Refused("no_discard", "You hold five cards: go alone without a discard.")
    state.maker_alone = True
    state.dead = state.dummy  # E20: a lone maker does not use the dummy; nobody sees it
    state.dummy = None
    events = [event("maker_alone", {"player": _name(state, seat)}, private)]
    return events + start_defence(state)


def do_with_dummy(state: Euchre3State, seat: int, action: dict) -> list[Event]:
    state.maker_alone = False
    state.phase = KEEP
    return [
        event(
            "maker_with_dummy",
            {"player": _name(state, seat)},
            {_name(state, seat): {"dummy": list(state.dummy_cards())}},
        )
    ]


def do_keep(state: Euchre3State, seat: int, action: dict) -> list[Event] | Refused:
    cards = action.get("cards")
    pool = state.hands[seat] + state.dummy_cards()
    problem = _keep_problem(state, cards, pool)
    if problem is not None:
        return problem
    assert isinstance(cards, (list, tuple))  # _keep_problem refused anything but five cards
    chosen = set(cards)
    kept = tuple(filter(chosen.__contains__, pool))
    dropped = tuple(filterfalse(chosen.__contains__, pool))
    _replace_hand(state, seat, kept)
    _add_discards(state, seat, dropped)
    state.dummy = None
    name = _name(state, seat)
    events = [
        event(
            "kept",
            {"player": name, "discarded": len(dropped)},
            {name: {"hand": list(kept), "discards": list(dropped)}},
        )
    ]
    return events + start_defence(state)


def _keep_problem(state: Euchre3State, cards: object, pool: tuple[str, ...]) -> Refused | None:
    if not isinstance(cards, (list, tuple)) or len(cards) != 5:
        return Refused("wrong_keep_size", "Keep exactly five cards from your hand and the dummy.")
    if not all(isinstance(card, str) for card in cards):
        return Refused("not_a_card", "Give card codes such as JH.")
    if len(set(cards)) != 5:
        return Refused("duplicate_card", "Keep five different cards.")
    for card in cards:
        problem = card_problem(state, card, pool)
        if problem is not None:
            if problem.code == "not_in_hand":
                return Refused("not_in_hand", f"{card} is neither in your hand nor in the dummy.")
            return problem
    return None


def start_defence(state: Euchre3State) -> list[Event]:
    """EU3-A8: defenders speak in turn from the maker's left, when a lone defender is possible."""
    if not lone_defence_possible(state):
        return start_play(state)
    maker = state.maker_seat()
    first, second = (maker + 1) % 3, (maker + 2) % 3
    state.phase = DEFEND
    state.defence_queue = (first, second)
    state.turn = first
    return []


def do_defender_alone(state: Euchre3State, seat: int, action: dict) -> list[Event] | Refused:
    if action.get("discard") is not None:
        return Refused("no_discard", "A defender goes alone without a discard.")
    partner = 3 - state.maker_seat() - seat
    state.lone_defender = seat
    state.sitting_out = partner
    state.defence_queue = ()
    events = [
        event(
            "defender_alone",
            {"player": _name(state, seat), "sitting_out": _name(state, partner)},
        )
    ]
    return events + start_play(state)


def do_defender_pass(state: Euchre3State, seat: int, action: dict) -> list[Event]:
    events = [event("defender_passed", {"player": _name(state, seat)})]
    queue = state.defence_queue[1:]
    state.defence_queue = queue
    if queue:
        state.turn = queue[0]
        return events
    return events + start_play(state)


# ----- play ---------------------------------------------------------------------------------
def next_active(state: Euchre3State, seat: int) -> int:
    """The next seat clockwise that plays this hand (skipping a sitting-out defender)."""
    seat = (seat + 1) % 3
    if seat == state.sitting_out:
        seat = (seat + 1) % 3
    return seat


def first_leader(state: Euchre3State) -> int:
    """EU3-A9."""
    if state.lone_defender is not None:
        if state.maker_alone:
            return state.lone_defender  # both alone: the defender leads
        return next_active(state, state.lone_defender)
    if state.maker_alone:
        return next_active(state, state.maker_seat())
    return (state.dealer + 1) % 3


def start_play(state: Euchre3State) -> list[Event]:
    leader = first_leader(state)
    state.phase = PLAY
    state.leader = leader
    state.turn = leader
    return [
        event(
            "play_started",
            {
                "leader": _name(state, leader),
                "trump": state.trump,
                "maker": _name(state, state.maker_seat()),
                "maker_alone": bool(state.maker_alone),
                "lone_defender": None if state.lone_defender is None else _name(state, state.lone_defender),
                "sitting_out": None if state.sitting_out is None else _name(state, state.sitting_out),
            },
        )
    ]


# seat -> the next seat clockwise
_NEXT_SEAT = (1, 2, 0)


def do_play(state: Euchre3State, seat: int, action: dict) -> list[Event] | Refused:
    """E24-E26: `seat`, whose turn it is in phase `play`, plays the action's card."""
    card = action.get("card")
    hands = state.hands
    hand = hands[seat]
    if card not in hand:
        return not_held(state, card)
    trick = state.trick
    trump = state.trump_suit()
    if trick and card not in legal_plays(hand, trick[0][1], trump):
        led_suit = EFFECTIVE_SUIT[trump][trick[0][1]]
        return Refused("must_follow_suit", f"Follow the suit led ({led_suit}); the left bower counts as trump.")
    index = hand.index(card)
    hand = hand[:index] + hand[index + 1 :]
    if seat == 0:
        state.hands = (hand, hands[1], hands[2])
    elif seat == 1:
        state.hands = (hands[0], hand, hands[2])
    else:
        state.hands = (hands[0], hands[1], hand)
    trick += ((seat, card),)
    players = state.players
    events = [event("played", {"player": players[seat], "card": card})]
    sitting_out = state.sitting_out
    if len(trick) < (3 if sitting_out is None else 2):
        state.trick = trick
        following = _NEXT_SEAT[seat]
        state.turn = _NEXT_SEAT[following] if following == sitting_out else following
        return events
    # E25: the highest trump, else the highest card of the suit led: the highest TRICK_VALUE.
    values = TRICK_VALUE[trump][EFFECTIVE_SUIT[trump][trick[0][1]]]
    if len(trick) == 3:
        (first, card0), (second, card1), (third, card2) = trick
        cards: tuple[str, ...] = (card0, card1, card2)
        best = values[card0]
        winner = first
        value = values[card1]
        if value > best:
            best = value
            winner = second
        if values[card2] > best:
            winner = third
    else:
        (first, card0), (second, card1) = trick
        cards = (card0, card1)
        winner = second if values[card1] > values[card0] else first
    won = state.tricks_won
    if winner == 0:
        state.tricks_won = (won[0] + 1, won[1], won[2])
    elif winner == 1:
        state.tricks_won = (won[0], won[1] + 1, won[2])
    else:
        state.tricks_won = (won[0], won[1], won[2] + 1)
    played = state.played + cards
    state.played = played
    state.trick = ()
    state.last_trick = trick
    state.last_trick_winner = winner
    state.leader = winner
    state.turn = winner
    number = len(played) // len(cards)
    events.append(
        event(
            "trick_won",
            {"player": players[winner], "trick": number, "cards": list(cards)},
        )
    )
    if number == 5:
        events.extend(end_hand(state))
    return events


def end_hand(state: Euchre3State) -> list[Event]:
    maker = state.maker_seat()
    maker_tricks = state.tricks_won[maker]
    options = state.options
    points = hand_points(maker, maker_tricks, bool(state.maker_alone), state.lone_defender, options)
    scores = state.scores
    scores = state.scores = (
        scores[0] + points[0],
        scores[1] + points[1],
        scores[2] + points[2],
    )
    one, two, three = state.players
    events = [
        event(
            "round_scored",
            {
                "round": state.round,
                "maker": state.players[maker],
                "maker_tricks": maker_tricks,
                "euchred": maker_tricks < 3,
                "points": {one: points[0], two: points[1], three: points[2]},
                "scores": {one: scores[0], two: scores[1], three: scores[2]},
            },
        )
    ]
    winners = match_winners(scores, options)
    if winners:
        state.winners = winners
        state.phase = OVER
        state.turn = None
        players = state.players
        events.append(
            event(
                "match_won",
                {
                    "winners": [players[seat] for seat in winners],
                    "scores": {one: scores[0], two: scores[1], three: scores[2]},
                },
            )
        )
        return events
    events.append(deal(state, state.round + 1, (state.dealer + 1) % 3))
    return events
