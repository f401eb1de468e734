"""Everything a running bot is made of, as one typed object per Application.

`bot/app.py` builds it once, before the Application exists (the flood gate, the update processor
and the figures go into the Application's builder), and keeps it under one key of `bot_data`.
The handlers' own services (`handlers.context.Karata`: store, table service, publisher, courier,
chat keeper) need the running loop and the built bot, so they are made at start-up and kept as
`karata`, the handlers' one key; what is started later (the HTTP server, the Mini App's hub, the
start-up's background tasks) is filled in by whoever starts it.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from telegram.ext import Application

from bot.loop_lag import LoopLagProbe
from bot.settings import Settings
from handlers.delivery.flood import FloodGate, FloodLimiter
from handlers.delivery.precedence import UpdatesFirst
from tables.metrics import Metrics

if TYPE_CHECKING:
    from bot.web import WebServer
    from handlers.chat.arena_nights import ArenaBoard
    from handlers.webapp.live import LiveTables

SERVICES = "services"


class Liveness:
    """When updates last arrived, by either road."""

    def __init__(self, clock=time.monotonic):
        self.clock = clock
        self.started = clock()
        self.updates_at: float | None = None

    def saw_updates(self) -> None:
        self.updates_at = self.clock()

    def quiet_for(self) -> float:
        return self.clock() - (self.updates_at if self.updates_at is not None else self.started)


@dataclass
class Services:
    settings: Settings
    metrics: Metrics
    gate: FloodGate
    limiter: FloodLimiter
    updates: UpdatesFirst
    # When getUpdates last answered (the health check's liveness).
    liveness: Liveness
    # The bot's HTTP server (bot/runner.py), and the Mini App's hub when the app is served.
    web: WebServer | None = None
    live: LiveTables | None = None
    # What start-up left running in the background (menus, fresh deadlines).
    background: tuple[asyncio.Task[None], ...] = ()
    # Set when Telegram refuses the token (revoked): `karata run` stops (bot/runner.py).
    token_refused: asyncio.Event = field(default_factory=asyncio.Event)
    # How late the event loop runs what is due (/metrics), while the bot runs.
    loop_lag: LoopLagProbe | None = None
    # The arena nights' standings messages (handlers/chat/arena_nights.py), made at start-up.
    arena_board: ArenaBoard | None = None


def services_of(application: Application) -> Services:
    return application.bot_data[SERVICES]
