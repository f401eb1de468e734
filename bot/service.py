"""The table service: one table per chat (or forum topic), one lock per table.

Every change follows the same path: lock, load, check, apply through the engine, commit (the
new state, its version and the action in one transaction), schedule the next deadline, and
only then publish. Nothing here knows how a table looks in Telegram; the publisher does.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from pydantic import BaseModel

from engine.core.options import OptionsError, options_dict, parse_options
from engine.core.protocol import CLOCK, Action, Applied, Event, Game, MalformedAction, State
from engine.core.serialize import state_from_json, state_to_json
from engine.registry import UnknownGame, get_game
from bot.storage import Seat, Store, TableRow

log = logging.getLogger(__name__)

RECENT_EVENTS = 4


@dataclass
class Outcome:
    """What happened to a request: applied, or refused with a stable code for the renderer."""

    ok: bool
    code: str | None = None
    message: str | None = None
    table: TableRow | None = None
    values: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def refused(cls, code: str, message: str = "", table: TableRow | None = None, **values: Any) -> Outcome:
        return cls(False, code, message, table, values)


@dataclass
class Loaded:
    table: TableRow
    game: Game
    state: State | None


class Publisher(Protocol):
    async def lobby_changed(self, table: TableRow) -> None: ...

    async def table_changed(
        self, table: TableRow, game: Game, state: State, events: list[Event], actor: str | None
    ) -> None: ...

    async def lobby_closed(self, table: TableRow, reason: str) -> None: ...

    async def deadline_warning(self, table: TableRow, game: Game, state: State) -> None: ...

    async def nudge(self, table: TableRow, game: Game, state: State) -> None: ...


class Scheduler(Protocol):
    def schedule(self, table: TableRow, now: float) -> None: ...

    def cancel(self, table_id: int) -> None: ...

    def schedule_clock_actions(self, table_id: int, kinds: list[str]) -> None: ...


class TableService:
    def __init__(
        self,
        store: Store,
        publisher: Publisher,
        default_turn_seconds: int,
        clock: Callable[[], float] = time.time,
        round_pause_seconds: float = 0.0,
    ):
        self.store = store
        self.publisher = publisher
        self.scheduler: Scheduler | None = None
        self.default_turn_seconds = default_turn_seconds
        self.round_pause_seconds = round_pause_seconds
        self.clock = clock
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        # Tests and demos may fix the first dealer and the decks of a new match.
        self.deal_override: Callable[[TableRow], tuple[str | None, list[list[str]]]] | None = None

    def lock(self, table_id: int) -> asyncio.Lock:
        return self._locks[table_id]

    async def load(self, table_id: int) -> Loaded | None:
        table = await self.store.get_table(table_id)
        if table is None:
            return None
        game = get_game(table.game)
        state = state_from_json(game, table.state) if table.state else None
        return Loaded(table, game, state)

    # ----- the lobby ----------------------------------------------------------------------
    async def open_lobby(
        self,
        chat_id: int,
        thread_id: int,
        game_name: str,
        creator: Seat,
        raw_options: dict[str, Any],
        turn_seconds: int | None,
    ) -> Outcome:
        try:
            game = get_game(game_name)
        except UnknownGame:
            return Outcome.refused("unknown_game", game=game_name)
        try:
            options = parse_options(game.Options, raw_options)
        except OptionsError as error:
            return Outcome.refused("bad_option", str(error), option=error.option or "")
        if await self.store.live_table(chat_id, thread_id):
            return Outcome.refused("table_exists")
        now = self.clock()
        table = TableRow(
            table_id=0,
            chat_id=chat_id,
            thread_id=thread_id,
            game=game_name,
            status="lobby",
            creator_id=creator.user_id,
            options=options_dict(options),
            turn_seconds=self.default_turn_seconds if turn_seconds is None else turn_seconds,
            seats=[creator],
            seed=secrets.token_hex(8),
            created_at=now,
            updated_at=now,
        )
        table = await self.store.create_table(table)
        await self.publisher.lobby_changed(table)
        return Outcome(True, table=table)

    async def join(self, table_id: int, seat: Seat) -> Outcome:
        async with self.lock(table_id):
            loaded = await self.load(table_id)
            if loaded is None:
                return Outcome.refused("no_table")
            table, game = loaded.table, loaded.game
            if table.status != "lobby" or table.consents is not None:
                return Outcome.refused("not_lobby", table=table)
            if table.seat_of(seat.user_id):
                return Outcome.refused("already_joined", table=table)
            if len(table.seats) >= game.max_players:
                return Outcome.refused("table_full", table=table, limit=game.max_players)
            table.seats.append(seat)
            await self.store.save_table(table)
            await self.publisher.lobby_changed(table)
            return Outcome(True, table=table)

    async def leave(self, table_id: int, user_id: int) -> Outcome:
        async with self.lock(table_id):
            table = await self.store.get_table(table_id)
            if table is None or table.status != "lobby":
                return Outcome.refused("not_lobby", table=table)
            if not table.seat_of(user_id):
                return Outcome.refused("not_seated", table=table)
            table.seats = [seat for seat in table.seats if seat.user_id != user_id]
            if not table.seats:
                table.status = "cancelled"
                await self.store.save_table(table)
                await self.publisher.lobby_closed(table, "empty")
                return Outcome(True, table=table)
            if table.creator_id == user_id:
                table.creator_id = table.seats[0].user_id
            await self.store.save_table(table)
            await self.publisher.lobby_changed(table)
            return Outcome(True, table=table)

    async def cancel(self, table_id: int, user_id: int, is_admin: bool) -> Outcome:
        async with self.lock(table_id):
            table = await self.store.get_table(table_id)
            if table is None or table.status not in ("lobby", "playing"):
                return Outcome.refused("no_table", table=table)
            if user_id != table.creator_id and not is_admin:
                return Outcome.refused("not_creator_or_admin", table=table)
            table.status = "cancelled"
            table.deadline = None
            await self.store.save_table(table)
            if self.scheduler:
                self.scheduler.cancel(table_id)
            await self.publisher.lobby_closed(table, "cancelled")
            return Outcome(True, table=table)

    async def start(self, table_id: int, user_id: int) -> Outcome:
        async with self.lock(table_id):
            loaded = await self.load(table_id)
            if loaded is None:
                return Outcome.refused("no_table")
            table, game = loaded.table, loaded.game
            if table.status != "lobby":
                return Outcome.refused("not_lobby", table=table)
            if user_id != table.creator_id:
                return Outcome.refused("not_creator", table=table)
            options = parse_options(game.Options, table.options)
            players = [seat.player for seat in table.seats]
            if game.player_count_problem(players, options):
                return Outcome.refused(
                    "player_count", table=table, low=game.min_players, high=game.max_players
                )
            needing = [name for name in game.consent_options if table.options.get(name)]
            if needing and table.consents is None:
                # Options such as Kadi's hiding mode start only if every player agrees.
                table.consents = {}
                await self.store.save_table(table)
                await self.publisher.lobby_changed(table)
                return Outcome(True, table=table)
            return await self._deal(table, game, options)

    async def consent(self, table_id: int, user_id: int, agree: bool) -> Outcome:
        """A player's answer to the options that need everyone's consent; one refusal turns them off."""
        async with self.lock(table_id):
            loaded = await self.load(table_id)
            if loaded is None or loaded.table.status != "lobby" or loaded.table.consents is None:
                return Outcome.refused("not_lobby")
            table, game = loaded.table, loaded.game
            if table.seat_of(user_id) is None:
                return Outcome.refused("not_seated", table=table)
            table.consents[str(user_id)] = agree
            if not agree:
                for name in game.consent_options:
                    table.options[name] = False
                options = parse_options(game.Options, table.options)
                table.options = options_dict(options)
                return await self._deal(table, game, options)
            if all(table.consents.get(seat.player) for seat in table.seats):
                return await self._deal(table, game, parse_options(game.Options, table.options))
            await self.store.save_table(table)
            await self.publisher.lobby_changed(table)
            return Outcome(True, table=table)

    async def _deal(self, table: TableRow, game: Game, options: BaseModel) -> Outcome:
        players = [seat.player for seat in table.seats]
        table.consents = None
        dealer, decks = self.deal_override(table) if self.deal_override else (None, [])
        state = game.new(players, options, table.seed, dealer, decks)
        table.status = "playing"
        table.state = state_to_json(game, state)
        table.version = 1
        self._set_deadline(table, game, state)
        await self.store.save_table(table)
        if self.scheduler:
            self.scheduler.schedule(table, self.clock())
        await self.publisher.table_changed(table, game, state, [], None)
        return Outcome(True, table=table)

    async def end_session(self, table_id: int, user_id: int | None, is_admin: bool) -> Outcome:
        """End a running table where it stands (its creator, an admin, or the idle timer: user None)."""
        async with self.lock(table_id):
            loaded = await self.load(table_id)
            if loaded is None or loaded.state is None or loaded.table.status != "playing":
                return Outcome.refused("not_playing")
            table = loaded.table
            if user_id is not None and user_id != table.creator_id and not is_admin:
                return Outcome.refused("not_creator_or_admin", table=table)
            table.status = "finished"
            table.deadline = None
            table.paused_until = None
            await self.store.save_table(table)
            if self.scheduler:
                self.scheduler.cancel(table_id)
            await self.publisher.session_ended(table, loaded.game, loaded.state)
            return Outcome(True, table=table)

    async def end_idle_tables(self, idle_seconds: float) -> list[int]:
        """End tables nobody has touched for `idle_seconds` (a Lopti session's end, or an abandoned game)."""
        ended = []
        for table in await self.store.idle_tables(self.clock() - idle_seconds):
            if table.status == "lobby":
                await self.cancel(table.table_id, table.creator_id, True)
            else:
                await self.end_session(table.table_id, None, True)
            ended.append(table.table_id)
        return ended

    async def play_again(self, table_id: int, user_id: int, chat_member: Seat) -> Outcome:
        old = await self.store.get_table(table_id)
        if old is None or old.status != "finished":
            return Outcome.refused("no_table")
        outcome = await self.open_lobby(old.chat_id, old.thread_id, old.game, chat_member, old.options, old.turn_seconds)
        if not outcome.ok or outcome.table is None:
            return outcome
        for seat in old.seats:
            if seat.user_id != user_id:
                await self.join(outcome.table.table_id, seat)
        return outcome

    # ----- play ---------------------------------------------------------------------------
    async def act(self, table_id: int, player: str, version: int | None, action: Action) -> Outcome:
        """Apply `action` by `player`, drawn for `version`; a stale version changes nothing.
        Without a version the action applies to the table as it is (see `act_now`)."""
        async with self.lock(table_id):
            loaded = await self.load(table_id)
            if loaded is None or loaded.state is None:
                return Outcome.refused("no_table")
            table, game, state = loaded.table, loaded.game, loaded.state
            if table.status != "playing":
                return Outcome.refused("not_playing", table=table)
            if version is not None and version != table.version:
                return Outcome.refused("stale", table=table)
            if player != CLOCK and self.paused(table):
                return Outcome.refused("round_pause", table=table)
            if player != CLOCK and table.seat_of(int(player)) is None:
                return Outcome.refused("not_seated", table=table)
            try:
                action = game.check_action(player, action, [seat.player for seat in table.seats])
            except MalformedAction as error:
                return Outcome.refused("malformed", str(error), table=table)
            round_before = game.round_number(state)
            # The state was just loaded for this call, so the engine may change it in place.
            result = game.advance(state, player, action)
            if not isinstance(result, Applied):
                return Outcome.refused(result.code, result.message, table=table, **dict(result.details))
            new_round = game.round_number(result.state) != round_before and not game.is_finished(result.state)
            if new_round and self.round_pause_seconds > 0:
                table.paused_until = self.clock() + self.round_pause_seconds
            await self._commit(table, game, result.state, result.events, player, action)
            return Outcome(True, table=table)

    async def act_now(self, table_id: int, player: str, action: Action) -> Outcome:
        """An out-of-turn action that does not depend on what the player saw (a vote, a typed
        call): applied to the table as it is when its turn in the lock comes."""
        return await self.act(table_id, player, None, action)

    @staticmethod
    def clock_actions(game: Game, state: State) -> list[str]:
        """Windows the clock closes besides the turn timer (a Rule Vote, a champion's call)."""
        if game.is_finished(state):
            return []
        return [action["type"] for action in game.legal_actions(state, CLOCK) if action["type"] != "timeout"]

    async def clock_action(self, table_id: int, kind: str) -> Outcome:
        return await self.act_now(table_id, CLOCK, {"type": kind})

    async def timeout(self, table_id: int, version: int) -> Outcome:
        return await self.act(table_id, CLOCK, version, {"type": "timeout"})

    async def _commit(
        self, table: TableRow, game: Game, state: State, events: list[Event], player: str, action: Action
    ) -> None:
        table.version += 1
        table.state = state_to_json(game, state)
        spectator_events = [event.view(None) for event in events]
        table.recent_events = (table.recent_events + spectator_events)[-RECENT_EVENTS:]
        if game.is_finished(state):
            table.status = "finished"
        self._set_deadline(table, game, state)
        await self.store.save_table(table, (player, action))
        if self.scheduler:
            if table.deadline is None:
                self.scheduler.cancel(table.table_id)
            else:
                self.scheduler.schedule(table, self.clock())
            self.scheduler.schedule_clock_actions(table.table_id, self.clock_actions(game, state))
        await self.publisher.table_changed(table, game, state, events, player)

    def _set_deadline(self, table: TableRow, game: Game, state: State) -> None:
        waiting = game.to_act(state)
        if table.status != "playing" or not waiting or table.turn_seconds <= 0:
            table.deadline = None
            table.deadline_version = None
        else:
            seconds = table.turn_seconds + (self.round_pause_seconds if self.paused(table) else 0)
            table.deadline = self.clock() + game.decision_seconds(state, seconds)
            table.deadline_version = table.version
        table.warned = False

    def paused(self, table: TableRow) -> bool:
        return table.paused_until is not None and self.clock() < table.paused_until

    async def end_pause(self, table_id: int) -> None:
        """The pause between rounds is over: show the new deal."""
        async with self.lock(table_id):
            loaded = await self.load(table_id)
            if loaded is None or loaded.state is None or loaded.table.paused_until is None:
                return
            loaded.table.paused_until = None
            await self.store.save_table(loaded.table)
            await self.publisher.table_changed(loaded.table, loaded.game, loaded.state, [], None)

    # ----- timers -------------------------------------------------------------------------
    async def warn(self, table_id: int, version: int) -> None:
        async with self.lock(table_id):
            loaded = await self.load(table_id)
            if loaded is None or loaded.state is None or loaded.table.version != version:
                return
            if loaded.table.status != "playing" or loaded.table.warned:
                return
            loaded.table.warned = True
            await self.store.save_table(loaded.table)
            await self.publisher.deadline_warning(loaded.table, loaded.game, loaded.state)

    async def nudge(self, table_id: int, version: int) -> None:
        # Under the table's lock: a move landing while the nudge is being sent would otherwise
        # drop it before it is recorded, leaving a stale "your turn" in the player's chat.
        async with self.lock(table_id):
            loaded = await self.load(table_id)
            if loaded is None or loaded.state is None or loaded.table.version != version:
                return
            if loaded.table.status == "playing":
                await self.publisher.nudge(loaded.table, loaded.game, loaded.state)

    async def resume_after_restart(self) -> list[TableRow]:
        """Give every pending deadline a fresh full period: our downtime is never a player's penalty."""
        resumed = []
        now = self.clock()
        if self.scheduler:
            # Vote and champion windows also start again in full.
            for table in await self.store.playing_tables():
                loaded = await self.load(table.table_id)
                if loaded is not None and loaded.state is not None:
                    self.scheduler.schedule_clock_actions(table.table_id, self.clock_actions(loaded.game, loaded.state))
        for table in await self.store.tables_with_deadlines():
            if table.paused_until is not None:
                await self.end_pause(table.table_id)
                table = await self.store.get_table(table.table_id) or table
            if table.deadline is None:
                continue
            async with self.lock(table.table_id):
                table.deadline = now + table.turn_seconds
                table.warned = False
                await self.store.save_table(table)
                if self.scheduler:
                    self.scheduler.schedule(table, now)
                resumed.append(table)
        return resumed
