"""Dealing a round (K1.1-K1.4, KAD-A3/A4) and drawing from the stock with reshuffles (KAD-A7)."""

from __future__ import annotations

from engine.core.fast import event
from engine.core.protocol import Event
from engine.core.rng import shuffled
from engine.kadi.cards import DECK, is_power
from engine.kadi.state import KadiState


def deck_for_deal(state: KadiState, number: int) -> list[str]:
    """The explicit deck of deal `number` if the table gave one, else a seeded shuffle."""
    if number <= len(state.decks):
        return list(state.decks[number - 1])
    return shuffled(DECK, state.seed, "deal", number)


def deal_round(state: KadiState) -> Event:
    """Deal round `state.round` from `state.dealer` (mutates `state`); return the `dealt` event.

    One card at a time clockwise from the dealer's left, ending with the dealer; the next card
    starts the discard pile, and a power card there goes to the bottom of the stock (KAD-A4).
    """
    seats = state.seats
    count = len(seats)
    deck = deck_for_deal(state, state.round)
    start = seats.index(state.dealer) + 1
    order = [seats[(start + i) % count] for i in range(count)]
    size = state.options.hand_size
    position = size * count
    hands: dict[str, list[str]] = {p: [] for p in state.players}
    for i, player in enumerate(order):  # every count-th card, as dealt one at a time
        hands[player] = deck[i:position:count]
    rest = deck[position:]
    buried: list[str] = []
    # Turn cards until an ordinary one shows; a pile of power cards only keeps its first card.
    for _ in range(len(rest)):
        if not is_power(rest[0]):
            break
        buried.append(rest[0])
        rest = rest[1:] + rest[:1]
    else:
        buried = []
        rest = deck[position:]
    state.hands = hands
    state.hidden = {p: None for p in state.players}
    state.discard = [rest[0]]
    state.stock = rest[:0:-1]  # rest[1] is the top, so it goes last
    state.turn = order[0]
    state.direction = 1
    state.pen_kind = None
    state.pen_amount = 0
    state.command = None
    state.command_for = None
    state.drawn = None
    state.window = None
    state.call_due = False
    state.announced = []
    state.hide_used = False
    state.phase = "play"
    state.provisional = None
    state.accepted = []
    state.resume_turn = None
    state.reshuffles = 0
    state.idle = 0
    return event(
        "dealt",
        {
            "round": state.round,
            "dealer": state.dealer,
            "seats": list(seats),
            "hand_size": size,
            "start_card": rest[0],
            "buried": buried,
            "first": order[0],
        },
        {p: {"hand": list(hands[p])} for p in seats},
    )


def draw_cards(state: KadiState, player: str, count: int, events: list[Event]) -> list[str]:
    """Move up to `count` cards from the stock to `player`'s hand (changes `state` in place).

    An empty stock is rebuilt from the discard pile except its top card, shuffled from the
    seed (KAD-A7); when both are exhausted the player draws what there is.
    """
    stock = state.stock
    hand = state.hands[player]
    drawn: list[str] = []
    while len(drawn) < count:
        if not stock:
            if len(state.discard) < 2:
                break
            state.reshuffles += 1
            below = state.discard[:-1]
            state.discard = state.discard[-1:]
            stock.extend(shuffled(below, state.seed, "reshuffle", state.round, state.reshuffles))
            events.append(event("reshuffled", {"cards": len(stock)}))
        card = stock.pop()
        hand.append(card)
        drawn.append(card)
    return drawn
