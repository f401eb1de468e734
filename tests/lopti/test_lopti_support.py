"""Helpers for the Lopti tests: explicit decks that give chosen players chosen cards, and play drivers.

(Named test_lopti_* to stay within the test file names; it holds no tests itself.)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence

from engine.core.protocol import CLOCK, Applied, Refused
from engine.lopti import GAME
from engine.lopti.rules import DECK

# Every card of the pack, once: where the cards of a state must add up to.
FULL_DECK = Counter(DECK)

PLAYERS = ["amina", "baraka", "chausiku"]
FIVE = ["amina", "baraka", "chausiku", "daudi", "eshe"]

# Unnamed places are filled with plain cards first, so that fillers rarely interfere.
_FILL_RANKS = ("4", "5", "6", "8", "9", "J", "Q", "K", "A", "2", "7", "3", "10")
FILL_ORDER = [rank + suit for rank in _FILL_RANKS for suit in "SHDC"]


def build_deck(
    players: Sequence[str] = PLAYERS,
    dealer: str = "amina",
    *,
    face_down: Mapping[str, Sequence[str]] = {},
    face_up: Mapping[str, Sequence[str]] = {},
    hand: Mapping[str, Sequence[str]] = {},
    stock: Sequence[str] = (),
    fill: Sequence[str] = (),
) -> list[str]:
    """A 52-card deck dealt per docs/REPLAY.md (left of the dealer first; face-down, face-up, hand).

    Every named zone gets exactly the listed cards (in position order); unnamed places take
    cards from `fill` first, then from FILL_ORDER. The stock starts with `stock`.
    """
    named = [card for zone in (face_down, face_up, hand) for cards in zone.values() for card in cards]
    named += list(stock)
    assert len(set(named)) == len(named), "a card is named twice"
    spare = [card for card in list(fill) + FILL_ORDER if card not in named]
    spare = list(dict.fromkeys(spare))
    start = players.index(dealer)
    order = [players[(start + 1 + offset) % len(players)] for offset in range(len(players))]
    deck: list[str] = []
    for zone in (face_down, face_up, hand):
        for rotation in range(3):
            for player in order:
                cards = zone.get(player)
                if cards is not None:
                    deck.append(cards[rotation])
                else:
                    deck.append(spare.pop(0))
    deck += list(stock) + spare
    assert sorted(deck) == sorted(DECK)
    return deck


def new_game(deck: list[str], players: Sequence[str] = PLAYERS, dealer: str = "amina", options=None, seed=1):
    return GAME.new(list(players), GAME.Options(**(options or {})), seed, dealer, [deck])


def started(deck: list[str], players: Sequence[str] = PLAYERS, dealer: str = "amina", options=None, seed=1):
    """A new game with everyone ready: the starting player is to act."""
    state = new_game(deck, players, dealer, options, seed)
    for player in players:
        state = act(state, player, {"type": "ready"})
    return state


def act(state, player: str, action: dict):
    result = GAME.apply(state, player, GAME.check_action(player, action, state.players))
    assert isinstance(result, Applied), f"{player} {action}: {result}"
    return result.state


def act_events(state, player: str, action: dict):
    result = GAME.apply(state, player, GAME.check_action(player, action, state.players))
    assert isinstance(result, Applied), f"{player} {action}: {result}"
    return result.state, result.events


def refused(state, player: str, action: dict) -> Refused:
    before = GAME.dump(state)
    result = GAME.apply(state, player, GAME.check_action(player, action, state.players))
    assert isinstance(result, Refused), f"{player} {action} was accepted"
    assert GAME.dump(state) == before
    return result


def play(state, player: str, *cards: str):
    return act(state, player, {"type": "play", "cards": list(cards)})


def kinds(events) -> list[str]:
    return [event.kind for event in events]


def hand_of(state, player: str) -> list[str]:
    return GAME.view(state, player)["hand"]


def random_options(rng: random.Random) -> dict:
    return {
        "play_for_places": rng.random() < 0.5,
        "face_down_may_take": rng.random() < 0.7,
        "sevens_stack_singly": rng.random() < 0.3,
        "draw_up_to_three": rng.random() < 0.3,
        "unlimited_swaps": rng.random() < 0.3,
        "ten_on_seven": rng.random() < 0.3,
        "house_rules": rng.choice(["templates_and_text", "text", "templates", "off"]),
    }


def random_action(state, rng: random.Random):
    """A random legal (player, action); the round's winner sometimes writes a text rule."""
    waiting = GAME.to_act(state)
    player = rng.choice(waiting)
    actions = GAME.legal_actions(state, player)
    if state.phase == "authoring" and state.options["house_rules"] in ("text", "templates_and_text"):
        if rng.random() < 0.5:
            return player, {"type": "author_rule", "rule": {"text": f"rule {state.round}"}}
    if rng.random() < 0.02:
        return CLOCK, {"type": "timeout"}
    return player, rng.choice(actions)


def card_places(state) -> Counter:
    """Every card of the state wherever it is: hands, face-up, face-down, stock, pile, chain, burned."""
    places: Counter = Counter()
    for seat in range(len(state.players)):
        places.update(state.hands[seat])
        places.update(state.face_up[seat])
        places.update(card for card in state.face_down[seat] if card is not None)
    for zone in (state.stock, state.pile, state.chain, state.burned):
        places.update(zone)
    return places
