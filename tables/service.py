"""The table service: one table per chat (or forum topic), one lock per table.

Every change follows the same path: lock, load, check, apply through the engine, commit (the
new state, its version, the action, its events and the request that made it, in one
transaction), arm the table's timers, and put the committed table on the change feed. The
service never waits for Telegram: the publisher takes changes from the feed, and reports back
what each message shows, which the service records under the table's lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import time
import weakref
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel
from telegram.ext import JobQueue

from engine import ai
from engine.core.options import OptionsError, options_dict, parse_options
from engine.core.protocol import (
    CHAMPION_WINDOW,
    CLOCK,
    VOTE_WINDOW,
    Action,
    Applied,
    Event,
    Game,
    MalformedAction,
    State,
)
from engine.core.serialize import state_from_json, state_to_json
from engine.registry import UnknownGame, get_game
from tables.feed import ChangeFeed
from tables.log_context import about
from tables.metrics import UNREAD, Metrics
from tables.models import (
    CANCELLED,
    CHAT_LOST,
    COMPUTER_LEVELS,
    FINISHED,
    LOBBY,
    PLAYING,
    Loaded,
    Outcome,
    Seat,
    Shown,
    TableRow,
    computer_seat,
)
from tables.store import Store
from tables.thinking import Thinker
from tables.timers import Due, Timers

log = logging.getLogger(__name__)

# The table shows the last few of these that have a line (some events have none: a card the
# seats show); see handlers/presentation/render/table.py.
RECENT_EVENTS = 12
WINDOW = "window:"
TIMEOUT = {"type": "timeout"}
# An event of the table, not of a game: the turn timer ran out for these players.
TIMED_OUT = "timed_out"
# An event of the table: a player left the running match and a computer took their seat.
REPLACED = "replaced"
COMPUTER = "computer"


@dataclass(frozen=True)
class Timing:
    """How long things take at a table (seconds)."""

    turn_seconds: int = 90
    warn_seconds: float = 20
    nudge_seconds: float = 8
    round_pause_seconds: float = 0.0
    # Windows the clock closes besides the turn, by their kind (`Game.clock_windows`).
    window_seconds: Mapping[str, float] = field(default_factory=lambda: {VOTE_WINDOW: 120.0, CHAMPION_WINDOW: 120.0})
    # A computer player's pause before it moves, so that a group can follow the game.
    computer_seconds: float = 1.5


# What a handler passes to `act_with`: given the table as committed, the action to apply, or a
# refusal (or a coroutine giving one: a computer player thinks in a thread). It runs under the
# table's lock, so what it saw is what the action applies to.
Chooser = Callable[[Loaded], "Action | Outcome | Awaitable[Action | Outcome]"]


def not_lobby(table: TableRow | None) -> Outcome:
    """Why a lobby's button no longer works: the table was closed, or it has started."""
    if table is not None and table.status == CANCELLED:
        return Outcome.refused("closed_empty" if table.closed_reason == "empty" else "cancelled", table=table)
    return Outcome.refused("not_lobby", table=table)


def windows_after(
    windows: Mapping[str, list[float]],
    kinds: Sequence[str],
    fired: str | None,
    now: float,
    seconds_for: Callable[[str], float],
) -> dict[str, list[float]]:
    """The clock windows ([deadline, armed length] by the clock action that closes them) after a
    move: a window keeps its first deadline while the game still offers its action, and one the
    clock just closed starts afresh if the game offers it again (a new stage must not inherit a
    deadline already past, or it would close at once)."""
    after = {}
    for kind in kinds:
        kept = windows.get(kind) if kind != fired else None
        after[kind] = kept or [now + seconds_for(kind), seconds_for(kind)]
    return after


class TableService:
    def __init__(
        self,
        store: Store,
        feed: ChangeFeed,
        timing: Timing = Timing(),
        job_queue: JobQueue | None = None,
        clock: Callable[[], float] = time.time,
        thinker: Thinker | None = None,
        metrics: Metrics = UNREAD,
    ):
        self.store = store
        self.feed = feed
        self.timing = timing
        self.clock = clock
        self.thinker = thinker or Thinker()
        self.metrics = metrics
        self.timers = Timers(job_queue, self._on_due, clock) if job_queue is not None else None
        # A lock lives while someone holds or waits for it; idle tables cost no memory. Keys are
        # table ids, and ("chat", chat, topic) for opening a table there.
        self._locks: weakref.WeakValueDictionary[object, asyncio.Lock] = weakref.WeakValueDictionary()
        self.restarted_at = clock()
        # Where a new table's seed comes from; tests fix it so that every run deals the same.
        self.new_seed: Callable[[], str] = lambda: secrets.token_hex(8)
        # Tests and demos may fix the first dealer and the decks of a new match.
        self.deal_override: Callable[[TableRow], tuple[str | None, list[list[str]]]] | None = None

    def lock(self, key: object) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

    async def load(self, table_id: int) -> Loaded | None:
        about(table_id=table_id)
        table = await self.store.get_table(table_id)
        return self._loaded(table) if table is not None else None

    @staticmethod
    def _loaded(table: TableRow) -> Loaded:
        game = get_game(table.game)
        return Loaded(table, game, state_from_json(game, table.state) if table.state else None)

    async def _load_for(self, table_id: int, request: str) -> tuple[Loaded | None, bool]:
        """The table as `load` gives it, and whether `request` was already applied to it."""
        about(table_id=table_id)
        table, repeated = await self.store.get_table_for(table_id, request)
        if table is None or repeated:
            return None, repeated
        return self._loaded(table), False

    def _changed(self, loaded: Loaded) -> None:
        self.feed.put(loaded.table.table_id, loaded)

    async def _save(self, table: TableRow) -> None:
        """Save a change that is not a move (lobby, consent, warning, nudge) and publish it."""
        await self.store.save_table(table)
        self._arm(table)
        self._changed(self._loaded(table))

    # ----- the lobby ----------------------------------------------------------------------
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
        async with self.lock(("chat", chat_id, thread_id)):
            if arena_id is None and await self.store.live_table(chat_id, thread_id):
                return Outcome.refused("table_exists")
            now = self.clock()
            table = TableRow(
                table_id=0,
                chat_id=chat_id,
                thread_id=thread_id,
                game=game_name,
                status=LOBBY,
                creator_id=creator.user_id,
                options=options_dict(options),
                turn_seconds=self.timing.turn_seconds if turn_seconds is None else turn_seconds,
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
            table = await self.store.create_table(table)
        if start:
            return await self.start(table.table_id, creator.user_id)
        self._changed(Loaded(table, game, None))
        return Outcome(True, table=table)

    async def join(self, table_id: int, seat: Seat, token: str) -> Outcome:
        async with self.lock(table_id):
            loaded = await self.load(table_id)
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
        await self._save(table)
        return Outcome(True, table=table)

    async def leave(self, table_id: int, user_id: int) -> Outcome:
        async with self.lock(table_id):
            table = await self.store.get_table(table_id)
            if table is None or table.status != LOBBY:
                return not_lobby(table)
            if not table.seat_of(user_id):
                return Outcome.refused("not_seated", table=table)
            table.seats = [seat for seat in table.seats if seat.user_id != user_id]
            if not table.humans:  # computer players never sit alone
                table.status, table.closed_reason = CANCELLED, "empty"
            elif table.creator_id == user_id:
                table.creator_id = table.humans[0].user_id
            await self._save(table)
            return Outcome(True, table=table)

    async def add_computer(self, table_id: int, user_id: int) -> Outcome:
        """The opener seats a computer player in the lobby."""
        async with self.lock(table_id):
            loaded = await self.load(table_id)
            if loaded is None or loaded.table.status != LOBBY or loaded.table.consents is not None:
                return not_lobby(loaded.table if loaded else None)
            table, game = loaded.table, loaded.game
            if user_id != table.creator_id:
                return Outcome.refused("not_creator_computers", table=table)
            return await self._seat(table, game, computer_seat(table.level, table.seats))

    async def remove_computer(self, table_id: int, user_id: int) -> Outcome:
        """The opener takes the last computer player off the lobby."""
        async with self.lock(table_id):
            table = await self.store.get_table(table_id)
            if table is None or table.status != LOBBY or table.consents is not None:
                return not_lobby(table)
            if user_id != table.creator_id:
                return Outcome.refused("not_creator_computers", table=table)
            last = next((seat for seat in reversed(table.seats) if seat.is_computer), None)
            if last is None:
                return Outcome.refused("no_computer", table=table)
            table.seats = [seat for seat in table.seats if seat is not last]
            await self._save(table)
            return Outcome(True, table=table)

    async def cancel(self, table_id: int, user_id: int, is_admin: bool) -> Outcome:
        async with self.lock(table_id):
            table = await self.store.get_table(table_id)
            if table is None or table.status not in (LOBBY, PLAYING):
                return Outcome.refused("no_table", table=table)
            if user_id != table.creator_id and not is_admin:
                return Outcome.refused("not_creator_or_admin", table=table)
            table.status, table.closed_reason = CANCELLED, "cancelled"
            table.deadline = table.deadline_seconds = None
            table.paused_until = None
            table.nudged = []
            await self._save(table)
            return Outcome(True, table=table)

    async def start(self, table_id: int, user_id: int) -> Outcome:
        async with self.lock(table_id):
            loaded = await self.load(table_id)
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
                await self._save(table)
                return Outcome(True, table=table)
            return await self._deal(table, game, options)

    async def consent(self, table_id: int, user_id: int, agree: bool) -> Outcome:
        """A player's answer to the options that need everyone's consent; one refusal turns them off."""
        async with self.lock(table_id):
            loaded = await self.load(table_id)
            if loaded is None or loaded.table.status != LOBBY or loaded.table.consents is None:
                return not_lobby(loaded.table if loaded else None)
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
            if all(table.consents.get(player) for player in table.players):
                return await self._deal(table, game, parse_options(game.Options, table.options))
            await self._save(table)
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
        self._set_deadline(table, game, state)
        self._set_windows(table, game, state, None)
        self._set_computer_turn(table, game, state)
        await self.store.save_table(table)
        self._arm(table)
        self._changed(Loaded(table, game, state))
        return Outcome(True, table=table)

    async def end_session(self, table_id: int, user_id: int | None, is_admin: bool) -> Outcome:
        """End a running table where it stands (its creator, an admin, or the idle timer: user None)."""
        async with self.lock(table_id):
            loaded = await self.load(table_id)
            if loaded is None or loaded.state is None or loaded.table.status != PLAYING:
                return Outcome.refused("not_playing")
            table = loaded.table
            if user_id is not None and user_id != table.creator_id and not is_admin:
                return Outcome.refused("not_creator_or_admin_end", table=table)
            table.status, table.closed_reason = FINISHED, "session_ended"
            table.deadline = table.deadline_seconds = None
            table.paused_until = None
            table.nudged = []
            await self.store.save_table(table, finished=True)
            self.metrics.matches_finished.labels(table.game).inc()
            self._arm(table)
            self._changed(loaded)
            return Outcome(True, table=table)

    async def end_idle_tables(self, idle_seconds: float) -> list[int]:
        """End tables nobody has touched for `idle_seconds` (a Lopti session's end, or an abandoned game)."""
        ended = []
        for table in await self.store.idle_tables(self.clock() - idle_seconds):
            if table.status == LOBBY:
                await self.cancel(table.table_id, table.creator_id, True)
            else:
                await self.end_session(table.table_id, None, True)
            ended.append(table.table_id)
        return ended

    async def play_again(self, table_id: int, chat_id: int, opener: Seat) -> Outcome:
        """A new lobby with the same game, options and players, in the chat the match was played in."""
        old = await self.store.get_table(table_id)
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

    # ----- play ---------------------------------------------------------------------------
    async def act(
        self, table_id: int, player: str, version: int | None, action: Action, request: str | None = None
    ) -> Outcome:
        """Apply `action` by `player`, drawn for `version`; a stale version changes nothing.
        Without a version the action applies to the table as it is when its turn in the lock comes
        (an out-of-turn action that does not depend on what the player saw: a vote, a typed call)."""

        def chosen(loaded: Loaded) -> Action | Outcome:
            if version is not None and version != loaded.table.version:
                return Outcome.refused("stale", table=loaded.table)
            return action

        return await self.act_with(table_id, player, chosen, request)

    async def act_with(
        self, table_id: int, player: str, choose: Chooser, request: str | None = None, computer: bool = False
    ) -> Outcome:
        """Apply the action `choose` picks from the table as committed, under the table's lock.

        `request` names what asked for it (a button press): a request seen before is not applied
        again, and its outcome says so (`repeated`). `computer`: the computer player of the seat
        acts (or moves for a person who ran out of time)."""
        async with self.lock(table_id):
            if request is None:
                loaded = await self.load(table_id)
            else:
                loaded, repeated = await self._load_for(table_id, request)
                if repeated:
                    return Outcome(True, repeated=True)
            if loaded is None or loaded.state is None:
                return Outcome.refused("no_table")
            table, game, state = loaded.table, loaded.game, loaded.state
            if table.status != PLAYING:
                return Outcome.refused("not_playing", table=table)
            if player != CLOCK:
                if self.paused(table):
                    return Outcome.refused("round_pause", table=table)
                # A leaver's seat is the computer's now: their old buttons do nothing.
                replaced = [seat.plays_for for seat in table.seats if seat.plays_for is not None]
                if player not in table.players or (player in replaced and not computer):
                    return Outcome.refused("not_seated", table=table)
            action = choose(loaded)
            if asyncio.iscoroutine(action):
                action = await action
            if isinstance(action, Outcome):
                return action
            try:
                action = game.check_action(player, action, table.players)
            except MalformedAction as error:
                return Outcome(False, "malformed", str(error), table, action=action)
            round_before = game.round_number(state)
            waited_for = game.to_act(state)
            # The state was just loaded for this call, so the engine may change it in place.
            result = game.advance(state, player, action)
            if not isinstance(result, Applied):
                return Outcome(False, result.code, result.message, table, dict(result.details), action=action)
            events = result.events
            if action == TIMEOUT:
                # The table says who ran out of time before what the bot did for them.
                events = [Event(TIMED_OUT, {"players": waited_for}), *events]
            elif computer and player not in table.computers:
                # A computer moved for a player who ran out of time (the table's stand-in option).
                events = [Event(TIMED_OUT, {"players": [player]}), *events]
            committed = Loaded(table, game, result.state)
            await self._commit(committed, events, player, action, round_before, request)
            return Outcome(True, table=table, action=action, loaded=committed)

    async def act_now(self, table_id: int, player: str, action: Action) -> Outcome:
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
        table = await self.store.get_table(table_id)
        if table is not None and table.stand_in and table.version == version and table.status == PLAYING:
            # The table chose that a computer moves for whoever ran out of time.
            loaded = await self.load(table_id)
            waiting = loaded.game.to_act(loaded.state) if loaded and loaded.state else []
            moved = [await self.computer_move(table_id, None, player) for player in waiting]
            if any(outcome.ok for outcome in moved):
                return next(outcome for outcome in moved if outcome.ok)
        return await self.act(table_id, CLOCK, version, dict(TIMEOUT))

    # ----- computer players ---------------------------------------------------------------
    async def computer_move(self, table_id: int, version: int | None, player: str | None = None) -> Outcome:
        """A computer player's move: it sees what its seat may see (the seat's view and legal
        actions, never the state) and its move goes the way a person's does. `player`: the
        seat to move for (a person who ran out of time); else the first computer the table
        waits for. A move the engine refuses gives way to the game's timeout move."""

        async def decide(loaded: Loaded) -> Action | Outcome:
            table, game, state = loaded.table, loaded.game, loaded.state
            if version is not None and version != table.version:
                return Outcome.refused("stale", table=table)
            if self.paused(table):
                return Outcome.refused("round_pause", table=table)
            legal = game.legal_actions(state, seat)
            if not legal:
                return Outcome.refused("not_your_turn", table=table)
            view = game.view(state, seat)
            level = table.level if table.level in ai.LEVELS else "easy"
            # Repeatable for a table, a move and a seat; nothing of the table's seed (the deck).
            digest = hashlib.sha256(f"{table.table_id}:{table.version}:{seat}".encode()).digest()
            # A search takes up to a second, in another process: the other tables go on.
            return await self.thinker.choose(
                game.name, view, list(legal), seat, level, int.from_bytes(digest[:8], "big")
            )

        loaded = await self.load(table_id)
        if loaded is None or loaded.state is None or loaded.table.status != PLAYING:
            return Outcome.refused("not_playing")
        waiting = loaded.game.to_act(loaded.state)
        seat = player or next((name for name in waiting if name in loaded.table.computers), None)
        if seat is None or seat not in waiting:
            return Outcome.refused("not_your_turn")
        try:
            outcome: Outcome | None = await self.act_with(table_id, seat, decide, computer=True)
        except Exception:  # a computer's bug must never stall a table
            log.exception("computer player %s of table %s failed", seat, table_id)
            outcome = None
        if outcome is not None and (outcome.ok or outcome.code in ("stale", "round_pause", "not_playing", "no_table")):
            return outcome
        if outcome is not None and outcome.action is not None:
            log.warning("table %s refused computer %s's %s: %s", table_id, seat, outcome.action, outcome.code)
        current = await self.store.get_table(table_id)
        return await self.act(table_id, CLOCK, current.version if current else version, dict(TIMEOUT))

    async def replace_with_computer(self, table_id: int, user_id: int) -> Outcome:
        """A player leaves the running match: a computer player takes their seat and plays on."""
        async with self.lock(table_id):
            loaded = await self.load(table_id)
            if loaded is None or loaded.state is None or loaded.table.status != PLAYING:
                return Outcome.refused("not_playing", table=loaded.table if loaded else None)
            table, game, state = loaded.table, loaded.game, loaded.state
            seat = table.seat_of(user_id)
            if seat is None:
                return Outcome.refused("not_seated", table=table)
            if len(table.humans) == 1:
                return Outcome.refused("last_human", table=table)
            computer = computer_seat(table.level, table.seats, plays_for=seat.player)
            if computer is None:
                return Outcome.refused("table_full", table=table, limit=len(table.seats))
            table.seats = [computer if other is seat else other for other in table.seats]
            if table.creator_id == user_id:
                table.creator_id = table.humans[0].user_id
            state = game.with_computers(state, table.computers)
            table.state = state_to_json(game, state)
            replaced = Event(REPLACED, {"player": seat.player, "left": seat.name, "by": computer.name})
            table.recent_events = (table.recent_events + [replaced.view(None)])[-RECENT_EVENTS:]
            table.nudged = [player for player in table.nudged if player != seat.player]
            table.notes.pop(seat.player, None)
            self._set_computer_turn(table, game, state)
            await self.store.save_table(table)
            self._arm(table)
            self._changed(Loaded(table, game, state))
            return Outcome(True, table=table, values={"name": computer.name})

    def _set_computer_turn(self, table: TableRow, game: Game, state: State) -> None:
        computers = table.computers
        table.computer_turn = bool(
            table.status == PLAYING and computers and any(player in computers for player in game.to_act(state))
        )

    async def _commit(
        self,
        loaded: Loaded,
        events: list[Event],
        player: str,
        action: Action,
        round_before: int,
        request: str | None,
    ) -> None:
        table, game, state = loaded.table, loaded.game, loaded.state
        table.version += 1
        table.state = state_to_json(game, state)
        spectator = [event.view(None) for event in events]
        table.recent_events = (table.recent_events + spectator)[-RECENT_EVENTS:]
        finished = game.is_finished(state)
        round_now = game.round_number(state)
        # The move's events, from which its round's results are posted when it closed one (a
        # round may close before the next begins: Lopti's winner writes a rule in between).
        table.round_events = {"round": round_before, "version": table.version, "events": spectator}
        if round_now != round_before and not finished and self.timing.round_pause_seconds > 0:
            table.paused_until = self.clock() + self.timing.round_pause_seconds
        self._keep_notes(table, events, player, round_now)
        waiting = set(game.to_act(state))
        table.nudged = [nudged for nudged in table.nudged if nudged in waiting and nudged != player]
        if finished:
            table.status = FINISHED
        self._set_deadline(table, game, state)
        self._set_windows(table, game, state, action["type"] if player == CLOCK else None)
        self._set_computer_turn(table, game, state)
        await self.store.save_table(
            table, (player, action), [event.to_json() for event in events], request, finished=finished
        )
        if finished:
            self.metrics.matches_finished.labels(table.game).inc()
        self._arm(table)
        self._changed(loaded)

    @staticmethod
    def _keep_notes(table: TableRow, events: list[Event], actor: str, round_number: int) -> None:
        """Each player's private lines of this move ("You drew 7♥") replace their last ones; the
        actor's go even when the move had none for them. A note belongs to its round."""
        notes = {player: note for player, note in table.notes.items() if note.get("round") == round_number}
        for player in table.players:
            private = [event.view(player) for event in events if player in event.private]
            if private:
                notes[player] = {"round": round_number, "events": private}
            elif player == actor:
                notes.pop(player, None)
        table.notes = notes

    def _set_deadline(self, table: TableRow, game: Game, state: State) -> None:
        waiting = game.to_act(state)
        if table.status != PLAYING or not waiting or table.turn_seconds <= 0:
            table.deadline = table.deadline_seconds = None
        else:
            seconds = float(game.decision_seconds(state, table.turn_seconds))
            pause = max(0.0, table.paused_until - self.clock()) if self.paused(table) else 0.0
            table.deadline = self.clock() + pause + seconds
            table.deadline_seconds = seconds
        table.warned = False

    def _set_windows(self, table: TableRow, game: Game, state: State, fired: str | None) -> None:
        kinds = self.clock_actions(game, state) if table.status == PLAYING else []
        table.windows = windows_after(
            table.windows, kinds, fired, self.clock(), lambda kind: self.timing.window_seconds[game.clock_windows[kind]]
        )

    def paused(self, table: TableRow) -> bool:
        return table.paused_until is not None and self.clock() < table.paused_until

    async def end_pause(self, table_id: int) -> None:
        """The pause between rounds is over: show the new deal."""
        async with self.lock(table_id):
            table = await self.store.get_table(table_id)
            if table is None or table.paused_until is None:
                return
            table.paused_until = None
            await self._save(table)

    # ----- timers -------------------------------------------------------------------------
    def _arm(self, table: TableRow) -> None:
        """Arm the table's timers for its committed row (and disarm what it no longer needs)."""
        if self.timers is None:
            return
        table_id, version = table.table_id, table.version
        self.timers.cancel(table_id)
        if table.status != PLAYING:
            return
        now = self.clock()
        start = table.paused_until if self.paused(table) else now
        if table.paused_until is not None:
            self.timers.set(table_id, "pause", table.paused_until, version)
        if self.timing.nudge_seconds > 0:
            self.timers.set(table_id, "nudge", start + self.timing.nudge_seconds, version)
        if table.deadline is not None:
            self.timers.set(table_id, "timeout", table.deadline, version)
            warn_at = table.deadline - self.timing.warn_seconds
            if self.timing.warn_seconds and warn_at > now and not table.warned:
                self.timers.set(table_id, "warn", warn_at, version)
        for kind, (due, _seconds) in table.windows.items():
            self.timers.set(table_id, WINDOW + kind, due, version)
        if table.computer_turn:
            self.timers.set(table_id, COMPUTER, start + self.timing.computer_seconds, version)

    async def _on_due(self, due: Due) -> None:
        if due.kind == "timeout":
            await self.timeout(due.table_id, due.version)
        elif due.kind == "warn":
            await self.warn(due.table_id, due.version)
        elif due.kind == "nudge":
            await self.nudge(due.table_id, due.version)
        elif due.kind == "pause":
            await self.end_pause(due.table_id)
        elif due.kind == COMPUTER:
            await self.computer_move(due.table_id, due.version)
        elif due.kind.startswith(WINDOW):
            await self.clock_action(due.table_id, due.kind.removeprefix(WINDOW))

    async def warn(self, table_id: int, version: int) -> None:
        async with self.lock(table_id):
            table = await self.store.get_table(table_id)
            if table is None or table.version != version or table.status != PLAYING or table.warned:
                return
            table.warned = True
            await self.store.save_table(table)
            self._changed(self._loaded(table))

    async def nudge(self, table_id: int, version: int) -> None:
        """A "your turn" nudge for whoever the table waits for and was not nudged yet."""
        async with self.lock(table_id):
            loaded = await self.load(table_id)
            if loaded is None or loaded.state is None or loaded.table.version != version:
                return
            table = loaded.table
            if table.status != PLAYING or self.paused(table):
                return
            computers = table.computers
            waiting = [
                player for player in loaded.game.to_act(loaded.state) if player.isdigit() and player not in computers
            ]
            fresh = [player for player in waiting if player not in table.nudged]
            if not fresh:
                return
            table.nudged = [*table.nudged, *fresh]
            await self.store.save_table(table)
            self._changed(loaded)

    async def resume_after_restart(self) -> int:
        """Arm every running table's timers again, each from the full length it was armed with
        (our downtime is never a player's penalty), and republish what may not have gone out.
        Touches no engine state: a restart costs one row read per running table. The stored
        deadlines follow in `store_fresh_deadlines`, which need not hold up the first update."""
        now = self.restarted_at = self.clock()
        rows = await self.store.timed_tables()
        for row in rows:
            special = row["windows"] != "{}" or row["paused_until"] is not None or row["warned"]
            table = await self.store.get_table(row["table_id"]) if special else None
            if table is not None:
                async with self.lock(table.table_id):
                    # A pause ends at once, a vote window starts again in full, and a warning
                    # shown before the restart gives way to the fresh time.
                    table.paused_until = None
                    table.windows = {kind: [now + seconds, seconds] for kind, (_due, seconds) in table.windows.items()}
                    if table.deadline is not None and table.deadline_seconds is not None:
                        table.deadline = now + table.deadline_seconds
                    await self.store.save_table(table)
                    self.feed.put(table.table_id)
            if self.timers is None:
                continue
            table_id, version = row["table_id"], row["version"]
            if table is not None:
                self._arm(table)
                continue
            if row["computer_turn"]:  # a computer's pending move: it moves after its pause
                self.timers.set(table_id, COMPUTER, now + self.timing.computer_seconds, version)
            # No nudge: a restart must not send thousands of them at once; the next move arms it.
            if row["deadline"] is not None and row["deadline_seconds"] is not None:
                deadline = now + row["deadline_seconds"]
                self.timers.set(table_id, "timeout", deadline, version)
                if self.timing.warn_seconds and row["deadline_seconds"] > self.timing.warn_seconds:
                    self.timers.set(table_id, "warn", deadline - self.timing.warn_seconds, version)
        for table_id in await self.store.tables_behind():
            self.feed.put(table_id)
        return len(rows)

    async def store_fresh_deadlines(self) -> None:
        """Write the deadlines the restart armed (what the table messages show as time left), for
        every table that has not moved since: a table that moved already has its own."""
        await self.store.rearm_deadlines(self.restarted_at)

    # ----- what the messages show (reported by the publisher) ------------------------------
    async def screens(self, table_id: int) -> dict[str, Shown]:
        return await self.store.screens_of(table_id)

    async def record_screen(self, table_id: int, slot: str, shown: Shown | None) -> None:
        async with self.lock(table_id):
            await self.store.record_screen(table_id, slot, shown)

    async def record_screens(self, table_id: int, shown: dict[str, Shown], published: int) -> None:
        """What several messages show now, and that the table's messages caught up with
        `published` (its revision), in one write.

        The record never holds the table's lock while it waits for its turn to write (a press on
        the table would wait behind other tables' moves): it writes when its turn comes and the
        lock is free, which makes the write as if under the lock (writes take turns, and nothing
        else records the table's messages); while a move of the table is under way, that goes first."""
        lock = self.lock(table_id)
        while not await self.store.record_screens(table_id, shown, published, unless=lock.locked):
            async with lock:
                pass

    async def record_poll(self, poll_id: str, table_id: int, key: str, chat_id: int, message_id: int) -> None:
        """A poll was opened for the table (its answers are looked up by poll id)."""
        await self.store.add_poll(poll_id, table_id, key, chat_id, message_id)

    async def close_polls(self, table_id: int) -> None:
        await self.store.close_polls(table_id)

    async def _add_unreachable(self, table_id: int, user_id: int) -> bool:
        """Mark the player unreachable at one running table; False if there is nothing to mark."""
        async with self.lock(table_id):
            table = await self.store.get_table(table_id)
            if table is None or table.status != PLAYING or user_id in table.unreachable:
                return False
            table.unreachable = [*table.unreachable, user_id]
            await self._save(table)
            return True

    async def mark_reachable(self, user_id: int) -> list[int]:
        """The player opened their private chat again; returns the tables it had failed for."""
        await self.store.set_dm_ok(user_id, True)
        recovered = []
        for found in await self.store.live_tables_of_user(user_id):
            if user_id not in found.unreachable:
                continue
            async with self.lock(found.table_id):
                table = await self.store.get_table(found.table_id)
                if table is not None and user_id in table.unreachable:
                    table.unreachable = [user for user in table.unreachable if user != user_id]
                    await self._save(table)
                    recovered.append(table.table_id)
        return recovered

    async def mark_user_unreachable(self, user_id: int, table_id: int | None = None) -> list[int]:
        """The user's private chat refuses the bot (blocked, or never opened): every running group
        table of theirs, and `table_id` whose message failed, tells its group until they open it
        again. Only the chat keeper (handlers/delivery/chat_keeper.py) calls this and `mark_reachable`."""
        await self.store.set_dm_ok(user_id, False)
        marked = []
        for table in await self.store.live_tables_of_user(user_id):
            # Checked again under the table's lock; tables with nothing to mark cost no second read.
            wanted = table.chat_id < 0 or table.table_id == table_id
            if not wanted or table.status != PLAYING or user_id in table.unreachable:
                continue
            if await self._add_unreachable(table.table_id, user_id):
                marked.append(table.table_id)
        return marked

    # ----- the chat changed under its tables -----------------------------------------------
    async def migrate_chat(self, old: int, new: int) -> list[int]:
        """The group `old` became the supergroup `new`: its tables, messages and records move
        there, under the locks of its chat and of its open tables, once (a second call moves
        nothing). Returns the open tables moved; each is put on the change feed, to be posted
        again in the new chat."""
        if old == new:
            return []
        async with contextlib.AsyncExitStack() as held:
            # The chat's locks first (no lobby opens meanwhile), then its tables' (no move is
            # applied meanwhile), each in one order.
            for chat in sorted((old, new)):
                await held.enter_async_context(self.lock(("chat", chat, 0)))
            for table in await self.store.live_tables_in_chat(old):
                await held.enter_async_context(self.lock(table.table_id))
            moved = await self.store.move_chat(old, new)
        for table_id in moved:
            self.feed.put(table_id)
        return moved

    async def end_lost_chat(self, chat_id: int) -> list[int]:
        """The bot can no longer write in `chat_id`: its open tables end where they stand (a
        lobby is cancelled, a match finishes; the players' private chats show the standings)
        and their timers stop. Returns the tables ended."""
        ended = []
        for found in await self.store.live_tables_in_chat(chat_id):
            async with self.lock(found.table_id):
                loaded = await self.load(found.table_id)
                if loaded is None or loaded.table.status not in (LOBBY, PLAYING) or loaded.table.chat_id != chat_id:
                    continue
                table = loaded.table
                finished = table.status == PLAYING and loaded.state is not None
                table.status, table.closed_reason = (FINISHED if finished else CANCELLED), CHAT_LOST
                table.deadline = table.deadline_seconds = None
                table.paused_until = None
                table.nudged = []
                table.windows = {}
                table.computer_turn = False
                await self.store.save_table(table, finished=finished)
                self._arm(table)
                self._changed(loaded)
                ended.append(table.table_id)
        return ended
