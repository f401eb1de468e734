"""Play: a move applied to a table under its lock, and committed.

A move goes one way, whoever makes it (a press, a tap in the Mini App, a typed call, the clock, a
computer player): under the table's lock the table is loaded (with whether its request was
already applied), checked, the action is chosen from it as committed, the engine applies it, and
the new state, its version, the action, its events and the request are committed in one
transaction; then the core arms the table's timers and puts it on the change feed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from engine.core.protocol import CLOCK, Action, Applied, Event, MalformedAction
from engine.core.serialize import state_to_json
from tables.models import FINISHED, PLAYING, Loaded, Outcome, TableRow
from tables.table_core import RECENT_EVENTS, TIMED_OUT, TIMEOUT, TableCore

# What a handler passes to `act_with`: given the table as committed, the action to apply, or a
# refusal (or a coroutine giving one: a computer player thinks in a thread). It runs under the
# table's lock, so what it saw is what the action applies to; a refusal it returns (or an
# Outcome that plays nothing) is what `act_with` returns, and nothing is stored.
Chooser = Callable[[Loaded], "Action | Outcome | Awaitable[Action | Outcome]"]


class Play:
    def __init__(self, core: TableCore) -> None:
        self.core = core

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
        async with self.core.lock(table_id):
            if request is None:
                loaded = await self.core.load(table_id)
            else:
                loaded, repeated = await self.core.load_for(table_id, request)
                if repeated:
                    return Outcome(True, repeated=True)
            if loaded is None or loaded.state is None:
                return Outcome.refused("no_table")
            table, game, state = loaded.table, loaded.game, loaded.state
            if table.status != PLAYING:
                return Outcome.refused("not_playing", table=table)
            if player != CLOCK:
                if self.core.paused(table):
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
        if round_now != round_before and not finished and self.core.timing.round_pause_seconds > 0:
            table.paused_until = self.core.clock() + self.core.timing.round_pause_seconds
        self._keep_notes(table, events, player, round_now)
        waiting = set(game.to_act(state))
        table.nudged = [nudged for nudged in table.nudged if nudged in waiting and nudged != player]
        if finished:
            table.status = FINISHED
        self.core.set_deadline(table, game, state)
        self.core.set_windows(table, game, state, action["type"] if player == CLOCK else None)
        self.core.set_computer_turn(table, game, state)
        await self.core.store.save_table(
            table, (player, action), [event.to_json() for event in events], request, finished=finished
        )
        if finished:
            self.core.metrics.matches_finished.labels(table.game).inc()
        self.core.arm(table)
        self.core.changed(loaded)

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
