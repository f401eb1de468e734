"""Matches played through the real table service and store, without Telegram: a scripted
series decides who wins each match, and everything else is the engine's doing."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from tables.feed import ChangeFeed
from tables.models import FINISHED, Seat, TableRow
from tables.service import TableService
from tables.store import Store

GROUP = -100500
OTHER_GROUP = -100600
AMINA, BARAKA, CHAUSIKU, DAUDI = (Seat(101, "Amina"), Seat(102, "Baraka"), Seat(103, "Chausiku"), Seat(104, "Daudi"))
ROBOT = Seat(-7, "Roboti Juma")  # a computer player: a negative user id
# Kadi where the first player out wins the match and anyone may draw instead of playing, so a
# player who only draws never wins: the series says who wins each match.
QUICK_KADI = {"points_limit": 1, "voluntary_draw": True, "hand_size": 5}


async def open_service(path: str, bot_id: int = 0) -> TableService:
    store = Store(path, bot_id)
    await store.open()
    for seat in (AMINA, BARAKA, CHAUSIKU, DAUDI):
        await store.remember_user(seat.user_id, seat.name, "en")
    service = TableService(store, ChangeFeed())
    seeds = itertools.count(1)
    service.lobby.new_seed = lambda: f"series-{next(seeds)}"
    return service


async def seat_table(service: TableService, chat_id: int, seats: Sequence[Seat], game: str, options: dict) -> TableRow:
    opened = await service.lobby.open_lobby(chat_id, 0, game, seats[0], dict(options), 0)
    assert opened.ok and opened.table is not None, opened
    table = opened.table
    for seat in seats[1:]:
        assert (await service.lobby.join(table.table_id, seat, table.join_token)).ok
    assert (await service.lobby.start(table.table_id, seats[0].user_id)).ok
    return table


def winning_policy(game, state, player: str, winner: str) -> dict:
    """The winner plays as many cards as it can (calling "Kadi Moja!" on the way); the others
    accept, draw or pass whenever they may."""
    legal = game.legal_actions(state, player)
    if player == winner:
        plays = [action for action in legal if action["type"] == "play"]
        for choice in (
            [action for action in plays if action.get("call")],
            plays,
            [action for action in legal if action["type"] == "call"],
        ):
            if choice:
                return max(choice, key=lambda action: len(action.get("cards", [])))
    for kind in ("accept", "draw", "pass"):
        for action in legal:
            if action["type"] == kind:
                return action
    return legal[0]


async def play_match(
    service: TableService, chat_id: int, seats: Sequence[Seat], winner: Seat, options: dict = QUICK_KADI
) -> TableRow:
    """A Kadi match at `chat_id` that `winner` wins; returns the finished table."""
    table = await seat_table(service, chat_id, seats, "kadi", options)
    for _ in range(3000):
        loaded = await service.load(table.table_id)
        assert loaded is not None and loaded.state is not None
        if loaded.table.status == FINISHED:
            assert loaded.game.winners(loaded.state) == [winner.player]
            return loaded.table
        player = loaded.game.to_act(loaded.state)[0]
        action = winning_policy(loaded.game, loaded.state, player, winner.player)
        outcome = await service.play.act(table.table_id, player, loaded.table.version, action)
        assert outcome.ok, outcome
    raise AssertionError("the match did not end")


async def play_random_match(
    service: TableService, chat_id: int, seats: Sequence[Seat], game: str, options: dict, pick
) -> TableRow:
    """A match of any game, each move picked by `pick(legal actions)`, played to its end."""
    table = await seat_table(service, chat_id, seats, game, options)
    for _ in range(20000):
        loaded = await service.load(table.table_id)
        assert loaded is not None and loaded.state is not None
        if loaded.table.status == FINISHED:
            return loaded.table
        player = loaded.game.to_act(loaded.state)[0]
        legal = loaded.game.legal_actions(loaded.state, player)
        assert (await service.play.act(table.table_id, player, loaded.table.version, pick(legal))).ok
    raise AssertionError("the match did not end")
