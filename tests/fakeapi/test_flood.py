"""Flood accounting: Telegram's sliding windows per group and bot-wide, bans after a 429, statistics
and seeded 429 drills, on a hand-moved clock."""

from __future__ import annotations

import aiohttp
import pytest
from telegram.error import RetryAfter

from fakeapi import FakeBotAPI
from tests.fakeapi.helpers import ALICE, GROUP, TOKEN, Clock, kb, running

pytestmark = [pytest.mark.asyncio, pytest.mark.filterwarnings("ignore::DeprecationWarning")]

GROUP2 = -1009876543210


def retry_after(error: RetryAfter) -> float:
    return error.value._retry_after.total_seconds()


async def test_counted_calls_are_accounted_without_limits(env, clock):
    fake, bot, alice, bob = env
    for i in range(25):
        await bot.send_message(GROUP, f"m{i}")  # over the group limit, but limits are off
    msg = fake.last_message(GROUP)
    await bot.edit_message_text("edited", GROUP, msg.message_id, reply_markup=kb([("Go", "go")]))
    qid = await fake.press(bob, GROUP, msg.message_id, "go")
    await bot.answer_callback_query(qid)
    await bot.send_chat_action(GROUP, "typing")
    await bot.get_chat_member(GROUP, ALICE)
    await bot.get_me()
    await bot.set_my_name("Karata")
    stats = fake.flood_stats()
    assert stats.calls == stats.delivered == 26  # 25 sends and one edit; the rest is not counted
    assert stats.calls_per_chat == stats.delivered_per_chat == {GROUP: 26}
    assert stats.busiest_minute == {GROUP: 26} and stats.busiest_second == 26
    assert stats.total_429 == stats.violations == 0 and stats.ban_violations == []


async def test_a_group_gets_20_calls_a_minute_then_429_and_a_ban(limited, clock):
    fake, bot, *_ = limited
    for i in range(20):
        await bot.send_message(GROUP, f"m{i}")
    with pytest.raises(RetryAfter) as refused:
        await bot.send_message(GROUP, "one too many")
    assert retry_after(refused) == 60
    clock.advance(30)
    with pytest.raises(RetryAfter) as again:  # before retry_after has passed: a ban violation
        await bot.send_message(GROUP, "too early")
    assert retry_after(again) == 30
    clock.advance(30)
    await bot.send_message(GROUP, "after the wait")

    stats = fake.flood_stats()
    assert stats.calls_per_chat[GROUP] == 23 and stats.delivered_per_chat[GROUP] == 21
    assert stats.refused == {"group_window": 1, "bot_window": 0, "ban": 1, "injected": 0}
    assert stats.violations == stats.total_429 == 2
    assert stats.busiest_minute[GROUP] == 20
    [ban] = stats.ban_violations
    assert (ban.chat_id, ban.method, ban.at, ban.banned_until) == (GROUP, "sendMessage", 1030, 1060)
    assert [m.plain for m in fake.bot_messages(GROUP)][-1] == "after the wait"
    assert "one too many" not in [m.plain for m in fake.bot_messages(GROUP)]


async def test_the_group_window_slides(limited, clock):
    fake, bot, *_ = limited
    message = await bot.send_message(GROUP, "table")
    for i in range(9):
        await bot.edit_message_text(f"v{i}", GROUP, message.message_id)
    clock.advance(30)
    for i in range(10):
        await bot.send_message(GROUP, f"later {i}")
    clock.advance(29.5)
    with pytest.raises(RetryAfter) as refused:  # the first ten are 59.5 s old
        await bot.delete_message(GROUP, message.message_id)
    assert retry_after(refused) == 1
    clock.advance(1)
    await bot.delete_message(GROUP, message.message_id)  # the first ten left the window
    assert fake.flood_stats().busiest_minute[GROUP] == 20


async def test_groups_have_separate_windows(limited, clock):
    fake, bot, *_ = limited
    fake.add_group(GROUP2, "Other table", members={ALICE: "creator"})
    for chat in (GROUP, GROUP2):
        for i in range(20):
            await bot.send_message(chat, f"m{i}")
            clock.advance(0.05)  # 20 calls a second bot-wide, under 30
    stats = fake.flood_stats()
    assert stats.total_429 == 0 and stats.busiest_minute == {GROUP: 20, GROUP2: 20}
    with pytest.raises(RetryAfter):
        await bot.send_message(GROUP2, "one too many")


async def test_more_than_30_calls_a_second_bot_wide_get_429(limited, clock):
    fake, bot, alice, bob = limited
    await fake.user_starts_bot(alice)
    for i in range(30):  # a private chat has no group window
        await bot.send_message(ALICE, f"m{i}")
    with pytest.raises(RetryAfter) as refused:
        await bot.send_message(ALICE, "one too many")
    assert retry_after(refused) == 1
    with pytest.raises(RetryAfter):  # Alice's chat is banned for that second
        await bot.send_message(ALICE, "again")
    clock.advance(1)
    await bot.send_message(ALICE, "fine")
    stats = fake.flood_stats()
    assert stats.refused == {"group_window": 0, "bot_window": 1, "ban": 1, "injected": 0}
    assert stats.busiest_second == 30 and stats.busiest_minute == {}
    assert stats.delivered_per_chat == {ALICE: 31}


async def test_the_429_answer_is_telegrams(limited, clock):
    fake, bot, *_ = limited
    for i in range(20):
        await bot.send_message(GROUP, f"m{i}")
    clock.advance(12.3)
    async with aiohttp.ClientSession() as session:
        async with session.post(f"{fake.base_url}{TOKEN}/sendMessage", data={"chat_id": GROUP, "text": "x"}) as r:
            assert r.status == 429
            assert await r.json() == {
                "ok": False,
                "error_code": 429,
                "description": "Too Many Requests: retry after 48",
                "parameters": {"retry_after": 48},
            }


async def test_injected_429s_are_seeded_and_ban_like_real_ones(clock):
    async def refusals(seed: int) -> list[int]:
        async with running(clock=Clock(), flood_limits=False) as (fake, bot, *_):
            fake.inject_429(0.3, retry_after=2, seed=seed)
            refused = []
            for i in range(30):
                try:
                    await bot.send_message(GROUP, f"m{i}")
                except RetryAfter as error:
                    assert error._retry_after.total_seconds() == 2
                    refused.append(i)
                    fake.clock.advance(2)  # wait as told: no ban violation
            await bot.get_me()  # not counted, never injected
            stats = fake.flood_stats()
            assert stats.refused["injected"] == len(refused) and stats.violations == 0
            return refused

    first = await refusals(seed=7)
    assert first == await refusals(seed=7) and 0 < len(first) < 30
    assert first != await refusals(seed=8)


async def test_a_call_during_an_injected_ban_is_a_violation(env, clock):
    fake, bot, *_ = env
    fake.inject_429(1.0, retry_after=5)
    with pytest.raises(RetryAfter):
        await bot.send_message(GROUP, "drill")
    fake.inject_429(0)
    clock.advance(4)
    with pytest.raises(RetryAfter) as refused:
        await bot.send_message(GROUP, "too early")
    assert retry_after(refused) == 1
    clock.advance(1)
    await bot.send_message(GROUP, "ok")
    stats = fake.flood_stats()
    assert stats.refused["injected"] == 1 and stats.refused["ban"] == 1 and len(stats.ban_violations) == 1
    with pytest.raises(ValueError):
        fake.inject_429(1.5)


async def test_default_fake_has_no_limits():
    assert FakeBotAPI().flood_control.enforce is False


async def test_on_a_faster_telegram_clock_the_minute_and_retry_after_keep_their_ratio(clock):
    # Telegram's second lasts 0.1 here: its minute lasts 6, and retry_after is in its own seconds.
    async with running(clock=clock, flood_limits=True, telegram_second=0.1) as (fake, bot, *_):
        for i in range(20):
            await bot.send_message(GROUP, f"m{i}")
        with pytest.raises(RetryAfter) as refused:
            await bot.send_message(GROUP, "one too many")
        assert retry_after(refused) == 60
        clock.advance(5.9)
        with pytest.raises(RetryAfter) as again:
            await bot.send_message(GROUP, "too early")
        assert retry_after(again) == 1
        clock.advance(0.1)
        await bot.send_message(GROUP, "after Telegram's minute")
    assert fake.flood_stats().busiest_minute[GROUP] == 20
