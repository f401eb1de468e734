"""Computer players: a computer seat's move, and a computer taking the seat of a player who left.

A computer player sees what its seat may see (the seat's view and legal actions, never the
state) and its move goes through play like a person's; a strong search runs in a worker process
(tables/thinking.py), so the other tables go on meanwhile.
"""

from __future__ import annotations

import hashlib
import logging

from engine import ai
from engine.core.protocol import CLOCK, Action, Event
from engine.core.serialize import state_to_json
from tables.models import PLAYING, Loaded, Outcome, computer_seat
from tables.playing import Play
from tables.table_core import RECENT_EVENTS, REPLACED, TIMEOUT, TableCore
from tables.thinking import Thinker

log = logging.getLogger(__name__)


class ComputerPlayers:
    def __init__(self, core: TableCore, play: Play, thinker: Thinker) -> None:
        self.core, self.play, self.thinker = core, play, thinker

    async def computer_move(self, table_id: int, version: int | None, player: str | None = None) -> Outcome:
        """A computer player's move: it sees what its seat may see (the seat's view and legal
        actions, never the state) and its move goes the way a person's does. `player`: the
        seat to move for (a person who ran out of time); else the first computer the table
        waits for. A move the engine refuses gives way to the game's timeout move."""

        async def decide(loaded: Loaded) -> Action | Outcome:
            table, game, state = loaded.table, loaded.game, loaded.state
            if version is not None and version != table.version:
                return Outcome.refused("stale", table=table)
            if self.core.paused(table):
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

        loaded = await self.core.load(table_id)
        if loaded is None or loaded.state is None or loaded.table.status != PLAYING:
            return Outcome.refused("not_playing")
        waiting = loaded.game.to_act(loaded.state)
        seat = player or next((name for name in waiting if name in loaded.table.computers), None)
        if seat is None or seat not in waiting:
            return Outcome.refused("not_your_turn")
        try:
            outcome: Outcome | None = await self.play.act_with(table_id, seat, decide, computer=True)
        except Exception:  # a computer's bug must never stall a table
            log.exception("computer player %s of table %s failed", seat, table_id)
            outcome = None
        if outcome is not None and (outcome.ok or outcome.code in ("stale", "round_pause", "not_playing", "no_table")):
            return outcome
        if outcome is not None and outcome.action is not None:
            log.warning("table %s refused computer %s's %s: %s", table_id, seat, outcome.action, outcome.code)
        current = await self.core.store.get_table(table_id)
        return await self.play.act(table_id, CLOCK, current.version if current else version, dict(TIMEOUT))

    async def replace_with_computer(self, table_id: int, user_id: int) -> Outcome:
        """A player leaves the running match: a computer player takes their seat and plays on."""
        async with self.core.lock(table_id):
            loaded = await self.core.load(table_id)
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
            self.core.set_computer_turn(table, game, state)
            await self.core.store.save_table(table)
            self.core.arm(table)
            self.core.changed(Loaded(table, game, state))
            return Outcome(True, table=table, values={"name": computer.name})
