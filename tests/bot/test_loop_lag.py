"""`karata_event_loop_lag_seconds`: a loop held up by work is seen, and a stopped probe stops."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.loop_lag import LoopLagProbe
from tables.metrics import Metrics

pytestmark = pytest.mark.asyncio


def observations(metrics: Metrics) -> dict[str, float]:
    """The histogram's count and how many observations were at most 0.1 s."""
    found = {}
    for sample in metrics.loop_lag.collect()[0].samples:
        if sample.name.endswith("_count"):
            found["count"] = sample.value
        elif sample.name.endswith("_bucket") and sample.labels["le"] == "0.1":
            found["quick"] = sample.value
    return found


async def test_a_loop_held_up_by_work_is_seen_late():
    metrics = Metrics()
    probe = LoopLagProbe(metrics.loop_lag, every=0.05)
    probe.start()
    try:
        await asyncio.sleep(0.01)
        time.sleep(0.4)  # a blocked loop: the probe's timer falls due and waits
        while observations(metrics).get("count", 0) < 2:
            await asyncio.sleep(0.05)
    finally:
        probe.stop()
    seen = observations(metrics)
    # Whatever the machine's load, the tick that fell due during the block ran at least 0.3 s late.
    assert seen["count"] - seen["quick"] >= 1


async def test_a_stopped_probe_observes_nothing_more():
    metrics = Metrics()
    probe = LoopLagProbe(metrics.loop_lag, every=0.01)
    probe.start()
    probe.stop()
    await asyncio.sleep(0.1)
    assert observations(metrics).get("count", 0) == 0
