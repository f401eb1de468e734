"""Builders for exact Three Thirteen situations: decks that give chosen players chosen cards."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from engine.core.options import parse_options
from engine.core.protocol import Applied, Refused
from engine.three_thirteen import GAME
from engine.three_thirteen.rules import deal_size, game_deck
from engine.three_thirteen.state import deal

PLAYERS2 = ["amina", "baraka"]
PLAYERS3 = ["amina", "baraka", "chausiku"]
PLAYERS4 = ["amina", "baraka", "chausiku", "daudi"]


def options(**chosen: Any):
    return parse_options(GAME.Options, chosen)


def build_deck(
    players: Sequence[str],
    dealer: str,
    hands: Mapping[str, Sequence[str]],
    round_number: int = 1,
    upcard: str | None = None,
    stock: Sequence[str] = (),
    jokers: int = 0,
    seated: Sequence[str] | None = None,
) -> list[str]:
    """A deck (docs/REPLAY.md dealing order) that deals `hands`, turns up `upcard`, then `stock` on top.

    Players not named in `hands`, and the rest of each named hand, get the first unused cards of
    the canonical deck; so does an unnamed upcard. The remaining cards follow the given stock.
    """
    seated = list(seated or players)
    size = deal_size(round_number)
    pool = Counter(game_deck(len(players), jokers))
    wanted = [*(c for h in hands.values() for c in h), *([upcard] if upcard else []), *stock]
    for card in wanted:
        if pool[card] <= 0:
            raise ValueError(f"card {card} asked for too often")
        pool[card] -= 1
    spare = []
    for card in game_deck(len(players), jokers):
        if pool[card] > 0:
            pool[card] -= 1
            spare.append(card)
    random.Random(0).shuffle(spare)  # so that filler cards rarely meld by accident
    spare_iter = iter(spare)
    full = {p: list(hands.get(p, ())) for p in seated}
    for p in seated:
        if len(full[p]) > size:
            raise ValueError(f"{p} given more than {size} cards")
        while len(full[p]) < size:
            full[p].append(next(spare_iter))
    start = seated.index(dealer) + 1
    order = [seated[(start + k) % len(seated)] for k in range(len(seated))]
    deck = [full[p][k] for k in range(size) for p in order]
    deck.append(upcard if upcard else next(spare_iter))
    deck.extend(stock)
    deck.extend(spare_iter)
    assert Counter(deck) == Counter(game_deck(len(players), jokers))
    return deck


def table(
    hands: Mapping[str, Sequence[str]],
    players: Sequence[str] = PLAYERS2,
    dealer: str | None = None,
    round_number: int = 1,
    upcard: str | None = None,
    stock: Sequence[str] = (),
    seed: int = 1,
    **chosen: Any,
):
    """A match whose current round `round_number` is dealt exactly as asked (dealer: last seat)."""
    players = list(players)
    dealer = dealer or players[-1]
    opts = options(**chosen)
    deck = build_deck(players, dealer, hands, round_number, upcard, stock, opts.jokers)
    if round_number == 1:
        return GAME.new(players, opts, seed, dealer, [deck])
    state = GAME.new(players, opts, seed, dealer)
    state.decks = [[]] * (round_number - 1) + [deck]
    deal(state, round_number, dealer, players)
    return state


def act(state, player: str, action: dict):
    """Apply an action that must be accepted; return (state, events)."""
    result = GAME.apply(state, player, GAME.check_action(player, action, state.players))
    assert isinstance(result, Applied), f"{action} refused: {getattr(result, 'code', '')}"
    return result.state, result.events


def refused(state, player: str, action: dict) -> str:
    result = GAME.apply(state, player, action)
    assert isinstance(result, Refused), f"{action} was accepted"
    return result.code


def kinds(events) -> list[str]:
    return [event.kind for event in events]


def play_timeouts(state, limit: int = 100_000):
    """Let the clock play every turn until the match ends."""
    for _ in range(limit):
        if GAME.is_finished(state):
            return state
        state, _ = act(state, "@clock", {"type": "timeout"})
    raise AssertionError("match did not end")


def random_state(seed: int, players: Sequence[str] = PLAYERS3, **chosen: Any):
    return GAME.new(list(players), options(**chosen), seed)


def rng(seed: int) -> random.Random:
    return random.Random(seed)
