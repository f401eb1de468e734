"""What a press chooses under the table's lock comes back to it as it chose it: a press that plays
nothing (a branch opened, a refusal) gets its own outcome back, and nothing of it is stored or
published, so the same press may still play later."""

from __future__ import annotations

import pytest

from tables.models import Outcome
from tests.tables.matches import AMINA, BARAKA, GROUP, QUICK_KADI, open_service, seat_table

pytestmark = pytest.mark.asyncio


async def drained(service) -> None:
    while service.feed.pending():
        await service.feed.take()


@pytest.mark.parametrize("played_nothing", ["opened", "refused"])
async def test_a_press_that_plays_nothing_gets_its_outcome_back_and_stores_nothing(database, played_nothing):
    service = await open_service(database)
    try:
        table = await seat_table(service, GROUP, [AMINA, BARAKA], "kadi", QUICK_KADI)
        before = await service.store.get_table(table.table_id)
        loaded = await service.load(table.table_id)
        player = loaded.game.to_act(loaded.state)[0]
        await drained(service)
        chosen = Outcome(True, values={"opened": 2}) if played_nothing == "opened" else Outcome.refused("stale")

        outcome = await service.play.act_with(table.table_id, player, lambda _loaded: chosen, request="press-1")
        assert outcome is chosen, "the press gets back what it chose, values and all"
        after = await service.store.get_table(table.table_id)
        assert (after.version, after.state, after.revision) == (before.version, before.state, before.revision)
        assert service.feed.pending() == 0, "nothing changed, so nothing goes out"

        # The request made nothing: the same press, pressed for a move, plays it.
        move = next(action for action in loaded.game.legal_actions(loaded.state, player) if action["type"] == "draw")
        played = await service.play.act_with(table.table_id, player, lambda _loaded: move, request="press-1")
        assert played.ok and not played.repeated
        assert (await service.store.get_table(table.table_id)).version == before.version + 1
    finally:
        await service.store.close()
