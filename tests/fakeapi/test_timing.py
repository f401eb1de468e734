"""Timing benchmarks read from the fake: callback answer latency and when each message version was made."""

from __future__ import annotations

import pytest

from tests.fakeapi.helpers import GROUP, kb

pytestmark = pytest.mark.asyncio


async def test_answer_latency_runs_from_the_update_to_the_answer(env, clock):
    fake, bot, alice, bob = env
    msg = await bot.send_message(GROUP, "Pick", reply_markup=kb([("A", "a"), ("B", "b")]))
    first = await fake.press(bob, GROUP, msg.message_id, "a")
    clock.advance(0.25)
    second = await fake.press(alice, GROUP, msg.message_id, "b")
    clock.advance(2.5)
    await bot.answer_callback_query(first, text="ok")
    await fake.press(bob, GROUP, msg.message_id, "a")  # never answered
    clock.advance(0.5)
    await bot.answer_callback_query(second)

    assert fake.answer_latency() == [2.75, 3.0]
    record = fake.queries[first]
    assert (record.created_at, record.answered_at, record.latency) == (1000, 1002.75, 2.75)
    assert record.user_id == bob.id and record.data == "a" and record.answer["text"] == "ok"
    assert [q.latency for q in fake.queries.values()] == [2.75, 3.0, None]


async def test_every_version_of_a_message_has_its_time(env, clock):
    fake, bot, *_ = env
    msg = await bot.send_message(GROUP, "v1", reply_markup=kb([("Go", "go")]))
    clock.advance(5)
    await bot.edit_message_text("v2", GROUP, msg.message_id, reply_markup=kb([("Go", "go")]))
    clock.advance(2)
    await bot.edit_message_reply_markup(GROUP, msg.message_id, reply_markup=kb([("Stop", "stop")]))
    clock.advance(2)
    await bot.delete_message(GROUP, msg.message_id)

    rec = fake.message(GROUP, msg.message_id)
    assert rec.version_times == [1000, 1005, 1007] and rec.edit_times == [1005, 1007]
    assert [v["plain"] for v in rec.versions] == ["v1", "v2", "v2"]
    assert rec.deleted_at == 1009
