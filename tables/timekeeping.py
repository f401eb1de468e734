"""The clock: what a table's timers do when they fire, and a restart's re-arming.

The core arms a table's timers for each saved row (tables/table_core.py `arm`): the turn's
timeout and its warning, the "your turn" nudge, the pause between rounds, the windows the clock
closes (a Rule Vote, a champion's call) and a computer player's pause. Each timer carries the
table version it was set for; one that fires after the table moved on changes nothing.
"""

from __future__ import annotations

from engine.core.protocol import CLOCK
from tables.computers import ComputerPlayers
from tables.models import PLAYING, Outcome
from tables.playing import Play
from tables.table_core import COMPUTER, TIMEOUT, WINDOW, TableCore
from tables.timers import Due


class Timekeeper:
    def __init__(self, core: TableCore, play: Play, computers: ComputerPlayers) -> None:
        self.core, self.play, self.computers = core, play, computers
        self.restarted_at = core.clock()

    async def end_pause(self, table_id: int) -> None:
        """The pause between rounds is over: show the new deal."""
        async with self.core.lock(table_id):
            table = await self.core.store.get_table(table_id)
            if table is None or table.paused_until is None:
                return
            table.paused_until = None
            await self.core.save(table)

    async def on_due(self, due: Due) -> None:
        if due.kind == "timeout":
            await self.timeout(due.table_id, due.version)
        elif due.kind == "warn":
            await self.warn(due.table_id, due.version)
        elif due.kind == "nudge":
            await self.nudge(due.table_id, due.version)
        elif due.kind == "pause":
            await self.end_pause(due.table_id)
        elif due.kind == COMPUTER:
            await self.computers.computer_move(due.table_id, due.version)
        elif due.kind.startswith(WINDOW):
            await self.clock_action(due.table_id, due.kind.removeprefix(WINDOW))

    async def warn(self, table_id: int, version: int) -> None:
        async with self.core.lock(table_id):
            table = await self.core.store.get_table(table_id)
            if table is None or table.version != version or table.status != PLAYING or table.warned:
                return
            table.warned = True
            await self.core.store.save_table(table)
            self.core.changed(self.core.loaded(table))

    async def nudge(self, table_id: int, version: int) -> None:
        """A "your turn" nudge for whoever the table waits for and was not nudged yet."""
        async with self.core.lock(table_id):
            loaded = await self.core.load(table_id)
            if loaded is None or loaded.state is None or loaded.table.version != version:
                return
            table = loaded.table
            if table.status != PLAYING or self.core.paused(table):
                return
            computers = table.computers
            waiting = [
                player for player in loaded.game.to_act(loaded.state) if player.isdigit() and player not in computers
            ]
            fresh = [player for player in waiting if player not in table.nudged]
            if not fresh:
                return
            table.nudged = [*table.nudged, *fresh]
            await self.core.store.save_table(table)
            self.core.changed(loaded)

    async def timeout(self, table_id: int, version: int) -> Outcome:
        table = await self.core.store.get_table(table_id)
        if table is not None and table.stand_in and table.version == version and table.status == PLAYING:
            # The table chose that a computer moves for whoever ran out of time.
            loaded = await self.core.load(table_id)
            waiting = loaded.game.to_act(loaded.state) if loaded and loaded.state else []
            moved = [await self.computers.computer_move(table_id, None, player) for player in waiting]
            if any(outcome.ok for outcome in moved):
                return next(outcome for outcome in moved if outcome.ok)
        return await self.play.act(table_id, CLOCK, version, dict(TIMEOUT))

    async def clock_action(self, table_id: int, kind: str) -> Outcome:
        return await self.play.act_now(table_id, CLOCK, {"type": kind})

    async def resume_after_restart(self) -> int:
        """Arm every running table's timers again, each from the full length it was armed with
        (our downtime is never a player's penalty), and republish what may not have gone out.
        Touches no engine state: a restart costs one row read per running table. The stored
        deadlines follow in `store_fresh_deadlines`, which need not hold up the first update."""
        now = self.restarted_at = self.core.clock()
        rows = await self.core.store.timed_tables()
        for row in rows:
            special = row["windows"] != "{}" or row["paused_until"] is not None or row["warned"]
            table = await self.core.store.get_table(row["table_id"]) if special else None
            if table is not None:
                async with self.core.lock(table.table_id):
                    # A pause ends at once, a vote window starts again in full, and a warning
                    # shown before the restart gives way to the fresh time.
                    table.paused_until = None
                    table.windows = {kind: [now + seconds, seconds] for kind, (_due, seconds) in table.windows.items()}
                    if table.deadline is not None and table.deadline_seconds is not None:
                        table.deadline = now + table.deadline_seconds
                    await self.core.store.save_table(table)
                    self.core.feed.put(table.table_id)
            if self.core.timers is None:
                continue
            table_id, version = row["table_id"], row["version"]
            if table is not None:
                self.core.arm(table)
                continue
            if row["computer_turn"]:  # a computer's pending move: it moves after its pause
                self.core.timers.set(table_id, COMPUTER, now + self.core.timing.computer_seconds, version)
            # No nudge: a restart must not send thousands of them at once; the next move arms it.
            if row["deadline"] is not None and row["deadline_seconds"] is not None:
                deadline = now + row["deadline_seconds"]
                self.core.timers.set(table_id, "timeout", deadline, version)
                if self.core.timing.warn_seconds and row["deadline_seconds"] > self.core.timing.warn_seconds:
                    self.core.timers.set(table_id, "warn", deadline - self.core.timing.warn_seconds, version)
        for table_id in await self.core.store.tables_behind():
            self.core.feed.put(table_id)
        return len(rows)

    async def store_fresh_deadlines(self) -> None:
        """Write the deadlines the restart armed (what the table messages show as time left), for
        every table that has not moved since: a table that moved already has its own."""
        await self.core.store.rearm_deadlines(self.restarted_at)
