"""States for the computer players' tests: random matches stopped part-way, and the same
table with the cards a player cannot see dealt differently."""

from __future__ import annotations

import random

import pytest

from engine.ai import euchre3, kadi, lopti, pitch, three_thirteen
from engine.ai.arena import arena_options
from engine.registry import get_game

GAMES = ("kadi", "pitch", "euchre3", "three_thirteen", "lopti")
PLAYERS = {"kadi": (2, 4), "pitch": (2, 4), "euchre3": (3, 3), "three_thirteen": (2, 3), "lopti": (2, 4)}
MODULES = {"kadi": kadi, "pitch": pitch, "euchre3": euchre3, "three_thirteen": three_thirteen, "lopti": lopti}


def midgame(name: str, seed: int):
    """(game, state, player to act) after a seeded number of random moves."""
    game = get_game(name)
    low, high = PLAYERS[name]
    rng = random.Random(seed)
    count = low + seed % (high - low + 1)
    state = game.new([f"p{i}" for i in range(count)], arena_options(game), seed)
    for _ in range(rng.randrange(0, 60)):
        waiting = game.to_act(state)
        if not waiting or game.is_finished(state):
            break
        mover = waiting[0]
        after = game.apply(state, mover, rng.choice(game.legal_actions(state, mover))).state
        if not game.to_act(after):  # stop short of the match's end: someone must be to act
            break
        state = after
    return game, state, game.to_act(state)[0]


def _zones(name: str, state, player: str) -> list[tuple]:
    """Every zone whose cards `player` cannot see: ("item", dict or list, key), ("attr", state,
    field) or ("row", state, field of tuples, index)."""
    if name in ("kadi", "three_thirteen"):
        return [("item", state.hands, p) for p in state.hands if p != player] + [("attr", state, "stock")]
    me = state.players.index(player)
    others = [seat for seat in range(len(state.players)) if seat != me]
    if name == "pitch":
        return [("item", state.hands, s) for s in others] + [("attr", state, "stock")]
    if name == "lopti":
        return [("item", state.hands, s) for s in others] + [("attr", state, "stock"), ("attr", state, "burned")]
    if name == "euchre3":
        return [("row", state, "hands", s) for s in others] + [("row", state, "discards", s) for s in others]
    raise ValueError(name)


def _get(zone) -> list[str]:
    kind, holder, key, *index = zone
    if kind == "item":
        return list(holder[key])
    if kind == "attr":
        return list(getattr(holder, key))
    return list(getattr(holder, key)[index[0]])


def _set(zone, cards: list[str]) -> None:
    kind, holder, key, *index = zone
    if kind == "item":
        holder[key] = type(holder[key])(cards)
    elif kind == "attr":
        setattr(holder, key, type(getattr(holder, key))(cards))
    else:
        rows = list(getattr(holder, key))
        rows[index[0]] = tuple(cards)
        setattr(holder, key, tuple(rows))


def reshuffle_unseen(name: str, state, player: str, rng: random.Random):
    """A copy of `state` with the cards `player` cannot see swapped among their hidden zones
    (other hands, the stock, face-down and discarded cards), every zone keeping its size."""
    other = state.copy()
    zones = _zones(name, other, player)
    contents = [_get(zone) for zone in zones]
    pool = [card for cards in contents for card in cards]
    if name == "lopti":  # face-down cards too, the player's own included (nobody sees them)
        rows = [list(row) for row in other.face_down]
        pool += [card for row in rows for card in row if card is not None]
    rng.shuffle(pool)
    at = 0
    for zone, cards in zip(zones, contents):
        _set(zone, pool[at : at + len(cards)])
        at += len(cards)
    if name == "lopti":
        rebuilt = []
        for row in other.face_down:
            new_row = []
            for card in row:
                if card is None:
                    new_row.append(None)
                else:
                    new_row.append(pool[at])
                    at += 1
            rebuilt.append(new_row)
        other.face_down = rebuilt
    if hasattr(other, "legal_for"):  # Kadi's legal-action cache belongs to the old hands
        other.legal_for = None
    elif hasattr(other, "legal"):
        other.legal = None
    return other


def small_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Strong players with a few playouts: the same code, a fraction of the time."""
    for module in MODULES.values():
        if hasattr(module, "PLAYOUTS"):
            monkeypatch.setattr(module, "PLAYOUTS", 12)
    monkeypatch.setattr(three_thirteen, "CANDIDATES", 2)
