"""The table service's core: one lock per table, the table as stored, and a change persisted
with what it schedules.

Every job of the service (tables/service.py lists them) changes a table the same way: under the
table's lock it loads the table, decides, and saves the change here, which arms the table's
timers for the saved row and puts it on the change feed. The core never waits for Telegram:
the publisher takes changes from the feed.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from engine.core.protocol import CHAMPION_WINDOW, CLOCK, VOTE_WINDOW, Game, State
from engine.core.serialize import state_from_json
from engine.registry import get_game
from tables.feed import ChangeFeed
from tables.log_context import about
from tables.metrics import UNREAD, Metrics
from tables.models import PLAYING, Loaded, TableRow
from tables.store import Store
from tables.timers import Timers

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


class TableCore:
    """Lock, load and persist a table, and arm what its saved row waits for."""

    def __init__(
        self,
        store: Store,
        feed: ChangeFeed,
        timing: Timing = Timing(),
        clock: Callable[[], float] = time.time,
        metrics: Metrics = UNREAD,
    ) -> None:
        self.store = store
        self.feed = feed
        self.timing = timing
        self.clock = clock
        self.metrics = metrics
        # Set by the service, whose clock job the timers call (None: nothing is armed).
        self.timers: Timers | None = None
        # A lock lives while someone holds or waits for it; idle tables cost no memory. Keys are
        # table ids, and ("chat", chat, topic) for opening a table there.
        self._locks: weakref.WeakValueDictionary[object, asyncio.Lock] = weakref.WeakValueDictionary()

    def lock(self, key: object) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

    async def load(self, table_id: int) -> Loaded | None:
        about(table_id=table_id)
        table = await self.store.get_table(table_id)
        return self.loaded(table) if table is not None else None

    @staticmethod
    def loaded(table: TableRow) -> Loaded:
        game = get_game(table.game)
        return Loaded(table, game, state_from_json(game, table.state) if table.state else None)

    async def load_for(self, table_id: int, request: str) -> tuple[Loaded | None, bool]:
        """The table as `load` gives it, and whether `request` was already applied to it."""
        about(table_id=table_id)
        table, repeated = await self.store.get_table_for(table_id, request)
        if table is None or repeated:
            return None, repeated
        return self.loaded(table), False

    def changed(self, loaded: Loaded) -> None:
        self.feed.put(loaded.table.table_id, loaded)

    async def save(self, table: TableRow) -> None:
        """Save a change that is not a move (lobby, consent, warning, nudge) and publish it."""
        await self.store.save_table(table)
        self.arm(table)
        self.changed(self.loaded(table))

    def paused(self, table: TableRow) -> bool:
        return table.paused_until is not None and self.clock() < table.paused_until

    def arm(self, table: TableRow) -> None:
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

    def set_deadline(self, table: TableRow, game: Game, state: State) -> None:
        waiting = game.to_act(state)
        if table.status != PLAYING or not waiting or table.turn_seconds <= 0:
            table.deadline = table.deadline_seconds = None
        else:
            seconds = float(game.decision_seconds(state, table.turn_seconds))
            pause = max(0.0, table.paused_until - self.clock()) if self.paused(table) else 0.0
            table.deadline = self.clock() + pause + seconds
            table.deadline_seconds = seconds
        table.warned = False

    def set_windows(self, table: TableRow, game: Game, state: State, fired: str | None) -> None:
        kinds = self.clock_actions(game, state) if table.status == PLAYING else []
        table.windows = windows_after(
            table.windows, kinds, fired, self.clock(), lambda kind: self.timing.window_seconds[game.clock_windows[kind]]
        )

    def set_computer_turn(self, table: TableRow, game: Game, state: State) -> None:
        computers = table.computers
        table.computer_turn = bool(
            table.status == PLAYING and computers and any(player in computers for player in game.to_act(state))
        )

    @staticmethod
    def clock_actions(game: Game, state: State) -> list[str]:
        """Windows the clock closes besides the turn timer (a Rule Vote, a champion's call)."""
        if game.is_finished(state):
            return []
        return [action["type"] for action in game.legal_actions(state, CLOCK) if action["type"] != "timeout"]
