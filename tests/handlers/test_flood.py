"""The flood gate keeps Telegram's limits before a call goes out, in priority order, chat by chat."""

from __future__ import annotations

import asyncio
import time

import pytest

from handlers.delivery.courier import Courier
from handlers.delivery.flood import BACKGROUND, POST, TABLE, URGENT, FloodGate

pytestmark = pytest.mark.asyncio

GROUP, OTHER_GROUP, PRIVATE = -100, -200, 42


def most_in_window(times: list[float], window: float) -> int:
    times = sorted(times)
    return max((sum(1 for other in times if start <= other < start + window) for start in times), default=0)


async def grants(gate: FloodGate, calls: list[tuple[int, int]]) -> list[tuple[float, int, int]]:
    """Acquire for each (chat, priority) at once; return (time granted, chat, priority) in grant order."""
    granted = []

    async def one(chat: int, priority: int) -> None:
        ticket = await gate.acquire(chat, priority)
        granted.append((time.monotonic(), chat, priority))
        gate.finished(ticket)

    await asyncio.gather(*(one(chat, priority) for chat, priority in calls))
    return granted


async def test_no_sliding_second_holds_more_calls_than_the_bot_limit():
    gate = FloodGate(per_second=5, group_per_minute=1000, second=0.2, minute=10)
    granted = await grants(gate, [(PRIVATE + n, BACKGROUND) for n in range(23)])
    assert len(granted) == 23
    assert most_in_window([when for when, _, _ in granted], 0.2) <= 5


async def test_a_group_never_gets_more_than_its_minute_and_edits_leave_room_for_posts():
    gate = FloodGate(per_second=100, group_per_minute=6, group_reserve=2, second=0.05, minute=0.6)
    edits = await grants(gate, [(GROUP, TABLE)] * 4)
    started = time.monotonic()
    # The minute holds 4 edits: posts may still take the 2 places kept for them, at once.
    await grants(gate, [(GROUP, POST)] * 2)
    assert time.monotonic() - started < 0.05
    assert most_in_window([when for when, _, _ in edits], 0.6) <= 4


async def test_table_edits_are_spread_over_the_minute():
    gate = FloodGate(per_second=100, group_per_minute=6, group_reserve=1, second=0.05, minute=0.6)
    granted = [when for when, _, _ in await grants(gate, [(GROUP, TABLE)] * 3)]
    gaps = [later - earlier for earlier, later in zip(granted, granted[1:])]
    assert all(gap >= 0.09 for gap in gaps), gaps


async def test_the_most_urgent_call_goes_first_when_the_second_is_full():
    gate = FloodGate(per_second=2, group_per_minute=1000, second=0.3, minute=10)
    await grants(gate, [(PRIVATE, BACKGROUND)] * 2)  # the second is full now
    order = [priority for _, _, priority in await grants(gate, [(PRIVATE + 1, BACKGROUND), (PRIVATE + 2, URGENT)])]
    assert order == [URGENT, BACKGROUND]


async def test_a_table_edit_is_not_starved_by_hands_that_fill_every_second():
    gate = FloodGate(per_second=2, group_per_minute=1000, second=0.1, minute=10, patience=0.3)
    granted: list[str] = []

    async def hands_without_end() -> None:
        for n in range(60):  # always another urgent hand waiting: about 3 s of full seconds
            ticket = await gate.acquire(PRIVATE + n % 7, URGENT)
            granted.append("hand")
            gate.finished(ticket)

    async def table_edit() -> None:
        await asyncio.sleep(0.01)
        ticket = await gate.acquire(GROUP, TABLE)
        granted.append("table")
        gate.finished(ticket)

    hands = [asyncio.create_task(hands_without_end()) for _ in range(3)]
    await asyncio.wait_for(table_edit(), 2)  # without patience it would wait for all 180 hands
    assert "table" in granted and granted.count("hand") < 180
    for task in hands:
        task.cancel()
    await asyncio.gather(*hands, return_exceptions=True)


async def test_a_flood_wait_holds_only_its_own_chat():
    gate = FloodGate(per_second=100, group_per_minute=100, second=0.05, minute=10)
    gate.ban(GROUP, 0.3)
    started = time.monotonic()
    granted = await grants(gate, [(GROUP, URGENT), (OTHER_GROUP, TABLE), (PRIVATE, BACKGROUND)])
    when = {chat: moment - started for moment, chat, _ in granted}
    # The others go first, however slow the machine; the banned group only once its wait is over.
    assert when[OTHER_GROUP] < when[GROUP] and when[PRIVATE] < when[GROUP]
    assert when[GROUP] >= 0.29


async def test_on_a_faster_telegram_clock_every_window_and_flood_wait_keeps_its_ratio():
    gate = FloodGate(per_second=100, group_per_minute=2, group_reserve=0, telegram_second=0.01)
    assert (gate.second, gate.minute, gate.patience) == pytest.approx((0.0105, 0.605, 0.03))
    gate.ban(OTHER_GROUP, 30)  # Telegram's 30 seconds: 0.3 here
    started = time.monotonic()
    granted = await grants(gate, [(GROUP, POST)] * 3 + [(OTHER_GROUP, POST)])
    when = sorted(moment - started for moment, chat, _ in granted if chat == GROUP)
    assert when[2] >= 0.6, "the third call waits for the group's minute"
    assert [moment - started for moment, chat, _ in granted if chat == OTHER_GROUP][0] >= 0.29


async def test_the_courier_sends_only_the_newest_content_of_a_message():
    gate = FloodGate(per_second=100, group_per_minute=100, second=0.05, minute=10)
    courier = Courier(gate)
    gate.ban(GROUP, 0.2)  # the group waits: three versions of its table arrive meanwhile
    sent = []

    def delivery(text):
        async def deliver(_ticket):
            sent.append(text)

        return deliver

    done = [courier.send(GROUP, (1, "table"), TABLE, delivery(f"v{n}")) for n in range(3)]
    courier.send(GROUP, (1, "results"), POST, delivery("results"))
    await asyncio.gather(*done)
    await courier.idle()
    assert sent == ["results", "v2"]


async def test_a_call_still_on_its_way_counts_until_answered_and_a_window_after():
    # Telegram counts a call when it arrives, which may be well after we let it go: our window
    # for it starts only once its answer is back.
    gate = FloodGate(per_second=2, group_per_minute=1000, second=0.2, minute=10)
    first, second = await gate.acquire(PRIVATE, BACKGROUND), await gate.acquire(PRIVATE + 1, BACKGROUND)
    third = asyncio.ensure_future(gate.acquire(PRIVATE + 2, BACKGROUND))
    await asyncio.sleep(0.3)
    assert not third.done(), "two calls are still under way: the second is full"
    answered = time.monotonic()
    gate.finished(first)
    gate.finished(second)
    await third
    assert time.monotonic() - answered >= 0.19
