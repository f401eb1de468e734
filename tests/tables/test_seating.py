"""A lobby seats people and computer players until the game's table is full, and no further."""

from __future__ import annotations

import pytest

from tests.tables.matches import AMINA, BARAKA, CHAUSIKU, DAUDI, GROUP, open_service

pytestmark = pytest.mark.asyncio


async def test_a_full_euchre_table_refuses_another_person_and_another_computer(database):
    service = await open_service(database)
    try:
        table = (await service.lobby.open_lobby(GROUP, 0, "euchre3", AMINA, {}, 0)).table
        assert (await service.lobby.join(table.table_id, BARAKA, table.join_token)).ok
        assert (await service.lobby.add_computer(table.table_id, AMINA.user_id)).ok  # the third and last seat
        person = await service.lobby.join(table.table_id, DAUDI, table.join_token)
        computer = await service.lobby.add_computer(table.table_id, AMINA.user_id)
        assert (person.code, computer.code) == ("table_full", "table_full")
        assert person.values["limit"] == computer.values["limit"] == 3
        seated = await service.store.get_table(table.table_id)
        assert [seat.name for seat in seated.seats if not seat.is_computer] == ["Amina", "Baraka"]
        assert len(seated.seats) == 3
        assert (await service.lobby.join(table.table_id, CHAUSIKU, "wrong-token")).code == "no_table"
    finally:
        await service.store.close()
