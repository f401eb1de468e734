"""Helpers for the Kadi tests: explicit decks that give chosen players chosen cards, and drivers.

(Named test_kadi_* to stay within the test file names; it holds no tests itself.)
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from engine.core.cards import is_card_code
from engine.core.protocol import CLOCK, Applied, Event, Refused
from engine.kadi import GAME, KadiOptions, KadiState
from engine.kadi.cards import DECK

PLAYERS = ["amina", "baraka", "chausiku"]
TWO = ["amina", "baraka"]

# Unnamed places take plain low cards first, so fillers rarely interfere; power cards come last.
_FILL_RANKS = ("3", "4", "5", "6", "9", "10", "Q", "K", "A", "8", "7", "2", "J")
FILL_ORDER = [rank + suit for rank in _FILL_RANKS for suit in "SHDC"] + ["X", "X"]


def build_deck(
    players: Sequence[str] = PLAYERS,
    dealer: str | None = None,
    *,
    hands: Mapping[str, Sequence[str]] = {},
    start: str | None = None,
    stock: Sequence[str] = (),
    hand_size: int = 5,
) -> list[str]:
    """A 54-card deck dealt per docs/REPLAY.md: one card at a time from the dealer's left.

    `hands[p]` are p's first cards (the rest is filler), `start` the turned-up card, `stock`
    the top of the stock in drawing order. The dealer defaults to the last player, so the
    first player deals to and leads first.
    """
    dealer = dealer or players[-1]
    named = [card for cards in hands.values() for card in cards] + list(stock) + ([start] if start else [])
    pool = Counter(DECK)
    pool.subtract(Counter(named))
    assert all(count >= 0 for count in pool.values()), f"a card is named too often: {named}"
    fill = []
    for card in FILL_ORDER:
        if pool[card] > 0:
            fill.append(card)
            pool[card] -= 1
    fillers = iter(fill)
    start_index = players.index(dealer) + 1
    order = [players[(start_index + i) % len(players)] for i in range(len(players))]
    deck: list[str] = []
    for i in range(hand_size):
        for player in order:
            cards = hands.get(player, ())
            deck.append(cards[i] if i < len(cards) else next(fillers))
    deck.append(start if start else next(fillers))
    deck.extend(stock)
    deck.extend(fillers)
    assert Counter(deck) == Counter(DECK)
    return deck


def new_game(
    players: Sequence[str] = PLAYERS,
    *,
    hands: Mapping[str, Sequence[str]] = {},
    start: str | None = None,
    stock: Sequence[str] = (),
    dealer: str | None = None,
    seed: int | str = 0,
    **options: Any,
) -> KadiState:
    options.setdefault("hand_size", 5)
    deck = build_deck(players, dealer, hands=hands, start=start, stock=stock, hand_size=options["hand_size"])
    return GAME.new(list(players), KadiOptions(**options), seed, dealer or players[-1], [deck])


def act(state: KadiState, player: str, action: dict[str, Any]) -> tuple[KadiState, list[Event]]:
    """Apply an action that must be accepted; return the new state and its events."""
    before = GAME.dump(state)
    result = GAME.apply(state, player, action)
    assert isinstance(result, Applied), f"{player} {action} refused: {getattr(result, 'code', '')}"
    assert GAME.dump(state) == before, "apply changed its input state"
    return result.state, result.events


def refused(state: KadiState, player: str, action: dict[str, Any]) -> str:
    """Apply an action that must be refused; check nothing changed; return the refusal code."""
    before = GAME.dump(state)
    result = GAME.apply(state, player, action)
    assert isinstance(result, Refused), f"{player} {action} was accepted"
    assert GAME.dump(state) == before
    return result.code


def kinds(events: Sequence[Event]) -> list[str]:
    return [event.kind for event in events]


def event(events: Sequence[Event], kind: str) -> Event:
    matching = [e for e in events if e.kind == kind]
    assert matching, f"no {kind} event in {kinds(events)}"
    return matching[0]


def play(*cards: str, **extra: Any) -> dict[str, Any]:
    return {"type": "play", "cards": list(cards), **extra}


DRAW = {"type": "draw"}
PASS = {"type": "pass"}
CALL = {"type": "call"}
TIMEOUT = {"type": "timeout"}


def all_cards(state: KadiState) -> Counter:
    """Every card's place counted once: hands, hidden cards, stock, discard."""
    cards: Counter = Counter(state.stock) + Counter(state.discard)
    for player in state.players:
        cards.update(state.hands[player])
        if state.hidden.get(player) is not None:
            cards[state.hidden[player]] += 1
    return cards


def random_options(rng: random.Random) -> KadiOptions:
    return KadiOptions(
        hand_size=rng.randint(5, 8),
        voluntary_draw=rng.random() < 0.3,
        mixed_stacking=rng.random() < 0.3,
        after_joker=rng.choice(["any", "card_below"]),
        command_scope=rng.choice(["until_covered", "next_player"]),
        power_finish=rng.choice(["draw_one", "forbidden"]),
        niko_kadi_ahead=rng.random() < 0.3,
        missed_call_penalty=rng.randint(1, 5),
        scoring=rng.choice(["seed", "pagat"]),
        points_limit=rng.choice([20, 50, 100]),
        elimination=rng.random() < 0.4,
        hiding=rng.random() < 0.4,
        hiding_penalty=rng.randint(3, 7),
    )


def random_walk(
    state: KadiState, rng: random.Random, max_steps: int = 20_000
) -> Iterator[tuple[str, dict[str, Any], KadiState, KadiState, list[Event]]]:
    """Random legal play by everyone who may act, not only `to_act`: calls and accusations too.

    Accusations are rare (they cost five cards when false), timeouts occasional. Yields
    (player, action, state before, state after, events).
    """
    for _ in range(max_steps):
        if GAME.is_finished(state):
            return
        waiting = GAME.to_act(state)
        assert waiting, "not finished but waiting for nobody"
        roll = rng.random()
        if roll < 0.03:
            player = CLOCK
            actions = GAME.legal_actions(state, CLOCK)
        else:
            others = [p for p in state.seats if p not in waiting]
            extra = []
            for p in others:
                extra.extend((p, a) for a in GAME.legal_actions(state, p) if a["type"] != "accuse")
            calls = [(p, a) for p, a in extra if a["type"] == "call"]
            if calls and rng.random() < 0.7:
                player, action = rng.choice(calls)
                actions = [action]
            else:
                player = rng.choice(waiting)
                actions = GAME.legal_actions(state, player)
                assert actions, f"{player} must act but has no legal action"
                accusations = [a for a in actions if a["type"] == "accuse"]
                if accusations and rng.random() < 0.97:
                    actions = [a for a in actions if a["type"] != "accuse"] or accusations
        action = rng.choice(actions)
        result = GAME.apply(state, player, action)
        assert isinstance(result, Applied), f"legal {action} of {player} refused: {result.code}"
        yield player, action, state, result.state, result.events
        state = result.state
    raise AssertionError("match did not end")


def card_strings(value: Any) -> list[str]:
    """Every card code inside a JSON-like value (keys and values), for leak checks."""
    found: list[str] = []
    if isinstance(value, str):
        if is_card_code(value) and value == value.upper():
            found.append(value)
    elif isinstance(value, Mapping):
        for key, item in value.items():
            found.extend(card_strings(key))
            found.extend(card_strings(item))
    elif isinstance(value, (list, tuple)):
        for item in value:
            found.extend(card_strings(item))
    return found


def deep(state: KadiState) -> KadiState:
    return copy.deepcopy(state)
