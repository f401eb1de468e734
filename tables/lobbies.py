"""The lobby: a table's life outside its moves. A table is opened with its opener seated, people
join and leave, the opener seats or removes computer players, the options that need everyone's
consent are agreed to, and the match is dealt; a table is cancelled, or its running match ended
where it stands (by its creator, an admin, or the idle timer); a finished match is played again.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from engine.core.options import OptionsError, options_dict, parse_options
from engine.core.protocol import Game
from engine.core.serialize import state_to_json
from engine.registry import UnknownGame, get_game
from tables.models import (
    CANCELLED,
    COMPUTER_LEVELS,
    FINISHED,
    LOBBY,
    PLAYING,
    Loaded,
    Outcome,
    Seat,
    TableRow,
    computer_seat,
)
from tables.table_core import TableCore


def not_lobby(table: TableRow | None) -> Outcome:
    """Why a lobby's button no longer works: the table was closed, or it has started."""
    if table is not None and table.status == CANCELLED:
        return Outcome.refused("closed_empty" if table.closed_reason == "empty" else "cancelled", table=table)
    return Outcome.refused("not_lobby", table=table)


class Lobby:
    def __init__(self, core: TableCore) -> None:
        self.core = core
        # Where a new table's seed comes from; tests fix it so that every run deals the same.
        self.new_seed: Callable[[], str] = lambda: secrets.token_hex(8)
        # Tests and demos may fix the first dealer and the decks of a new match.
        self.deal_override: Callable[[TableRow], tuple[str | None, list[list[str]]]] | None = None

    async def open_lobby(
        self,
        chat_id: int,
        thread_id: int,
        game_name: str,
        creator: Seat,
        raw_options: dict[str, Any],
        turn_seconds: int | None,
        computers: int = 0,
        level: str = "strong",
        stand_in: bool = False,
        start: bool = False,
        arena_id: int | None = None,
    ) -> Outcome:
        """A new lobby with the opener seated, and `computers` computer players of `level`;
        `start`: deal at once (a practice table in the private chat); `arena_id`: a table of that
        arena night (tables/arena_nights.py), one of several in its chat."""
        try:
            game = get_game(game_name)
        except UnknownGame:
            return Outcome.refused("unknown_game", game=game_name)
        try:
            options = parse_options(game.Options, raw_options)
        except OptionsError as error:
            return Outcome.refused("bad_option", str(error), option=error.option or "")
        if level not in COMPUTER_LEVELS:
            return Outcome.refused("bad_option", option="level")
        most = game.player_range(options)[1]
        if computers < 0 or 1 + computers > most:
            return Outcome.refused("table_full", limit=most)
        # One lobby per chat and topic: two presses of "Play again" must not race to open two.
        async with self.core.lock(("chat", chat_id, thread_id)):
            if arena_id is None and await self.core.store.live_table(chat_id, thread_id):
                return Outcome.refused("table_exists")
            now = self.core.clock()
            table = TableRow(
                table_id=0,
                chat_id=chat_id,
                thread_id=thread_id,
                game=game_name,
                status=LOBBY,
                creator_id=creator.user_id,
                options=options_dict(options),
                turn_seconds=self.core.timing.turn_seconds if turn_seconds is None else turn_seconds,
                seats=[creator],
                seed=self.new_seed(),
                join_token=secrets.token_hex(6),
                level=level,
                stand_in=stand_in,
                arena_id=arena_id,
                created_at=now,
                updated_at=now,
            )
            for _count in range(computers):
                seat = computer_seat(level, table.seats)
                assert seat is not None  # there are as many names as seats
                table.seats.append(seat)
            table = await self.core.store.create_table(table)
        if start:
            return await self.start(table.table_id, creator.user_id)
        self.core.changed(Loaded(table, game, None))
        return Outcome(True, table=table)

    async def join(self, table_id: int, seat: Seat, token: str) -> Outcome:
        async with self.core.lock(table_id):
            loaded = await self.core.load(table_id)
            if loaded is None or not secrets.compare_digest(loaded.table.join_token, token):
                return Outcome.refused("no_table")
            table, game = loaded.table, loaded.game
            if table.status != LOBBY or table.consents is not None:
                return not_lobby(table)
            if table.seat_of(seat.user_id):
                return Outcome.refused("already_joined", table=table)
            return await self._seat(table, game, seat)

    async def _seat(self, table: TableRow, game: Game, seat: Seat | None) -> Outcome:
        """Seat a person or a computer player (None: every computer player is seated) if the
        lobby has room; the caller holds the table's lock."""
        most = game.player_range(parse_options(game.Options, table.options))[1]
        if seat is None or len(table.seats) >= most:
            return Outcome.refused("table_full", table=table, limit=most)
        table.seats.append(seat)
        await self.core.save(table)
        return Outcome(True, table=table)

    async def leave(self, table_id: int, user_id: int) -> Outcome:
        async with self.core.lock(table_id):
            table = await self.core.store.get_table(table_id)
            if table is None or table.status != LOBBY:
                return not_lobby(table)
            if not table.seat_of(user_id):
                return Outcome.refused("not_seated", table=table)
            table.seats = [seat for seat in table.seats if seat.user_id != user_id]
            if not table.humans:  # computer players never sit alone
                table.status, table.closed_reason = CANCELLED, "empty"
            elif table.creator_id == user_id:
                table.creator_id = table.humans[0].user_id
            await self.core.save(table)
            return Outcome(True, table=table)

    async def add_computer(self, table_id: int, user_id: int) -> Outcome:
        """The opener seats a computer player in the lobby."""
        async with self.core.lock(table_id):
            loaded = await self.core.load(table_id)
            if loaded is None or loaded.table.status != LOBBY or loaded.table.consents is not None:
                return not_lobby(loaded.table if loaded else None)
            table, game = loaded.table, loaded.game
            if user_id != table.creator_id:
                return Outcome.refused("not_creator_computers", table=table)
            return await self._seat(table, game, computer_seat(table.level, table.seats))

    async def remove_computer(self, table_id: int, user_id: int) -> Outcome:
        """The opener takes the last computer player off the lobby."""
        async with self.core.lock(table_id):
            table = await self.core.store.get_table(table_id)
            if table is None or table.status != LOBBY or table.consents is not None:
                return not_lobby(table)
            if user_id != table.creator_id:
                return Outcome.refused("not_creator_computers", table=table)
            last = next((seat for seat in reversed(table.seats) if seat.is_computer), None)
            if last is None:
                return Outcome.refused("no_computer", table=table)
            table.seats = [seat for seat in table.seats if seat is not last]
            await self.core.save(table)
            return Outcome(True, table=table)

    async def cancel(self, table_id: int, user_id: int, is_admin: bool) -> Outcome:
        async with self.core.lock(table_id):
            table = await self.core.store.get_table(table_id)
            if table is None or table.status not in (LOBBY, PLAYING):
                return Outcome.refused("no_table", table=table)
            if user_id != table.creator_id and not is_admin:
                return Outcome.refused("not_creator_or_admin", table=table)
            table.status, table.closed_reason = CANCELLED, "cancelled"
            table.deadline = table.deadline_seconds = None
            table.paused_until = None
            table.nudged = []
            await self.core.save(table)
            return Outcome(True, table=table)

    async def start(self, table_id: int, user_id: int) -> Outcome:
        async with self.core.lock(table_id):
            loaded = await self.core.load(table_id)
            if loaded is None:
                return Outcome.refused("no_table")
            table, game = loaded.table, loaded.game
            if table.status != LOBBY:
                return not_lobby(table)
            if user_id != table.creator_id:
                return Outcome.refused("not_creator", table=table)
            options = parse_options(game.Options, table.options)
            if not table.humans:
                return Outcome.refused("no_human", table=table)
            if game.player_count_problem(table.players, options):
                low, high = game.player_range(options)
                if low == high:
                    return Outcome.refused("player_count_exact", table=table, count=low)
                return Outcome.refused("player_count", table=table, low=low, high=high)
            needing = [name for name in game.consent_options if table.options.get(name)]
            if needing and table.consents is None:
                # Options such as Kadi's hiding mode start only if every player agrees; computer
                # players agree to whatever the people agree to.
                table.consents = {player: True for player in table.computers}
                if len(table.consents) == len(table.players):
                    return await self._deal(table, game, options)
                await self.core.save(table)
                return Outcome(True, table=table)
            return await self._deal(table, game, options)

    async def consent(self, table_id: int, user_id: int, agree: bool) -> Outcome:
        """A player's answer to the options that need everyone's consent; one refusal turns them off."""
        async with self.core.lock(table_id):
            loaded = await self.core.load(table_id)
            if loaded is None or loaded.table.status != LOBBY or (consents := loaded.table.consents) is None:
                return not_lobby(loaded.table if loaded else None)
            table, game = loaded.table, loaded.game
            if table.seat_of(user_id) is None:
                return Outcome.refused("not_seated", table=table)
            consents[str(user_id)] = agree
            if not agree:
                for name in game.consent_options:
                    table.options[name] = False
                options = parse_options(game.Options, table.options)
                table.options = options_dict(options)
                return await self._deal(table, game, options)
            if all(consents.get(player) for player in table.players):
                return await self._deal(table, game, parse_options(game.Options, table.options))
            await self.core.save(table)
            return Outcome(True, table=table)

    async def _deal(self, table: TableRow, game: Game, options: BaseModel) -> Outcome:
        table.consents = None
        dealer, decks = self.deal_override(table) if self.deal_override else (None, [])
        table.deal = {"dealer": dealer, "decks": decks} if self.deal_override else None
        state = game.new(table.players, options, table.seed, dealer, decks)
        if table.computers:
            state = game.with_computers(state, table.computers)
        table.status = PLAYING
        table.state = state_to_json(game, state)
        table.version = 1
        self.core.set_deadline(table, game, state)
        self.core.set_windows(table, game, state, None)
        self.core.set_computer_turn(table, game, state)
        await self.core.store.save_table(table)
        self.core.arm(table)
        self.core.changed(Loaded(table, game, state))
        return Outcome(True, table=table)

    async def end_session(self, table_id: int, user_id: int | None, is_admin: bool) -> Outcome:
        """End a running table where it stands (its creator, an admin, or the idle timer: user None)."""
        async with self.core.lock(table_id):
            loaded = await self.core.load(table_id)
            if loaded is None or loaded.state is None or loaded.table.status != PLAYING:
                return Outcome.refused("not_playing")
            table = loaded.table
            if user_id is not None and user_id != table.creator_id and not is_admin:
                return Outcome.refused("not_creator_or_admin_end", table=table)
            table.status, table.closed_reason = FINISHED, "session_ended"
            table.deadline = table.deadline_seconds = None
            table.paused_until = None
            table.nudged = []
            await self.core.store.save_table(table, finished=True)
            self.core.metrics.matches_finished.labels(table.game).inc()
            self.core.arm(table)
            self.core.changed(loaded)
            return Outcome(True, table=table)

    async def end_idle_tables(self, idle_seconds: float) -> list[int]:
        """End tables nobody has touched for `idle_seconds` (a Lopti session's end, or an abandoned game)."""
        ended: list[int] = []
        for table in await self.core.store.idle_tables(self.core.clock() - idle_seconds):
            if table.status == LOBBY:
                await self.cancel(table.table_id, table.creator_id, True)
            else:
                await self.end_session(table.table_id, None, True)
            ended.append(table.table_id)
        return ended

    async def play_again(self, table_id: int, chat_id: int, opener: Seat) -> Outcome:
        """A new lobby with the same game, options and players, in the chat the match was played in."""
        old = await self.core.store.get_table(table_id)
        if old is None or old.status != FINISHED or old.chat_id != chat_id:
            return Outcome.refused("no_table")
        private = old.chat_id > 0  # a practice table: the same computers, dealt at once
        computers = len(old.computers)
        outcome = await self.open_lobby(
            old.chat_id, old.thread_id, old.game, opener, old.options, old.turn_seconds,
            computers=computers if private else 0, level=old.level, stand_in=old.stand_in, start=private,
        )  # fmt: skip
        if not outcome.ok or outcome.table is None or private:
            return outcome
        new = outcome.table
        for seat in old.seats:
            if seat.is_computer:
                await self.add_computer(new.table_id, opener.user_id)
            elif seat.user_id != opener.user_id:
                await self.join(new.table_id, seat, new.join_token)
        return outcome
