"""The figures an operator watches (`/metrics`, Prometheus' text format), one set per bot.

Every layer above the engine may count here; the bot's web server (bot/health.py) serves them.
Each Application gets its own `Metrics` with its own registry, so that several bots in one
process (the tests) never share a counter. Labels are only kinds, games, methods and outcomes:
never a user, a chat, a name or a message's text.
"""

from __future__ import annotations

import time
from collections import deque

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

from tables.db_errors import KINDS as DATABASE_ERROR_KINDS

# Press-to-answer times a person notices start around a tenth of a second.
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
# A loop that keeps up runs what is due within a millisecond; a tenth of a second is felt.
LAG_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
THINKING_BUCKETS = (0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0)
HOUR = 3600.0


class Recent:
    """How many events happened in the last hour (for the owner's /status), a minute at a time."""

    def __init__(self, clock=time.monotonic):
        self._clock = clock
        self._minutes: deque[list[float]] = deque()  # [minute, count]

    def add(self) -> None:
        minute = self._clock() // 60
        if self._minutes and self._minutes[-1][0] == minute:
            self._minutes[-1][1] += 1
        else:
            self._minutes.append([minute, 1])
        self._trim()

    def count(self) -> int:
        self._trim()
        return int(sum(count for _minute, count in self._minutes))

    def _trim(self) -> None:
        oldest = (self._clock() - HOUR) // 60
        while self._minutes and self._minutes[0][0] <= oldest:
            self._minutes.popleft()


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.updates = Counter("karata_updates", "Updates handled, by kind", ["kind"], registry=r)
        self.update_errors = Counter("karata_update_errors", "Updates whose handler failed", registry=r)
        self.press_seconds = Histogram(
            "karata_press_seconds", "From a button press's arrival to its handler's end (the answer)",
            buckets=LATENCY_BUCKETS, registry=r,
        )  # fmt: skip
        self.api_calls = Counter(
            "karata_bot_api_calls", "Bot API calls by method and outcome", ["method", "outcome"], registry=r
        )
        self.too_many_requests = Counter(
            "karata_bot_api_429", "Bot API answers 429 (Too Many Requests)", ["method"], registry=r
        )
        self.flood_waits = Counter("karata_flood_waits", "Flood waits Telegram imposed on a chat", registry=r)
        self.flood_wait_seconds = Counter(
            "karata_flood_wait_seconds", "Seconds of flood wait Telegram imposed", registry=r
        )
        self.queue_depth = Gauge("karata_flood_gate_waiting", "Calls waiting at the flood gate", registry=r)
        self.open_tables = Gauge(
            "karata_open_tables", "Tables in the lobby or being played", ["game", "status"], registry=r
        )
        self.matches_finished = Counter(
            "karata_matches_finished", "Matches and sessions that ended", ["game"], registry=r
        )
        self.computer_seconds = Histogram(
            "karata_computer_decision_seconds", "Time a computer player took to choose a move", ["level"],
            buckets=THINKING_BUCKETS, registry=r,
        )  # fmt: skip
        self.started_at = Gauge(
            "karata_start_time_seconds", "When this bot process started (changes() counts restarts)", registry=r
        )
        self.resumed_tables = Gauge(
            "karata_resumed_tables", "Running tables this process resumed at its start", registry=r
        )
        self.database_errors = Counter(
            "karata_database_errors", "Failed database writes, by kind (tables/db_errors.py)", ["kind"], registry=r
        )
        self.loop_lag = Histogram(
            "karata_event_loop_lag_seconds", "How late the event loop ran a timer due now (bot/loop_lag.py)",
            buckets=LAG_BUCKETS, registry=r,
        )  # fmt: skip
        for kind in DATABASE_ERROR_KINDS:  # every kind listed at 0: an alert needs the series
            self.database_errors.labels(kind)
        self.started_at.set(time.time())
        self.started_monotonic = time.monotonic()
        # For /status: presses and errors in the last hour.
        self.recent_presses = Recent()
        self.recent_errors = Recent()

    def press(self, seconds: float) -> None:
        self.press_seconds.observe(seconds)
        self.recent_presses.add()

    def error(self) -> None:
        self.update_errors.inc()
        self.recent_errors.add()


# What a part counts into when it is built without its bot's Metrics (the composition root,
# bot/app.py, gives every part the bot's own): tools and unit tests build parts alone, and
# nobody reads this one.
UNREAD = Metrics()
