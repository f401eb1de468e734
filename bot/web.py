"""The bot's one HTTP server: Telegram's webhook, the operator's /healthz and /metrics, and the
Mini App all share it (one port, one aiohttp application), in polling and in webhook mode.

The server is plain HTTP: in front of it the operator puts a TLS proxy (docs/OPERATIONS.md).
Routes are added before it starts; `mount` hangs a sub-application (the Mini App) under a prefix.

Anyone can reach it, so it is made for bad input and slow clients (docs/OPERATIONS.md "The HTTP
server"): a connection that has not sent a whole request within IDLE_SECONDS is closed, a
malformed request is answered 400 with a log line at most once a minute, and no response names
the server's software.
"""

from __future__ import annotations

import asyncio
import errno
import hmac
import logging
import math
import os
import socket
import time
from collections.abc import Callable
from typing import Any

from aiohttp import web, web_response
from aiohttp.http_exceptions import HttpProcessingError
from telegram.ext import Application

from bot.update_json import NotAnUpdate, read_update

log = logging.getLogger(__name__)

# Telegram's updates are small; a body larger than this is not one of them.
MAX_UPDATE_BYTES = 1 << 20
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
# A connection is closed when it has not sent a whole request within this many seconds of
# opening or of its last answer (aiohttp's keep-alive timeout, an hour by default). A page or a
# proxy that keeps its connection longer simply opens another.
IDLE_SECONDS = 30.0
# Connections the system queues before the server accepts them (aiohttp's own default).
LISTEN_BACKLOG = 128
# A webhook body not whole within this many seconds is refused: Telegram sends it at once.
BODY_SECONDS = 10.0
# At most one line about malformed requests in this many seconds (the rest are counted in it).
MALFORMED_LOG_SECONDS = 60.0
# What every response says in its Server header, for aiohttp's own answers too (a malformed
# request's 400): the Python and aiohttp versions are nobody's business.
SERVER_NAME = "Karata"
web_response.SERVER_SOFTWARE = SERVER_NAME


class CannotListen(SystemExit):
    """Raised with one human line: the address and port, why, and the setting to change."""


def _why_not(error: OSError, listen: str, port: int) -> str:
    # asyncio's own text repeats the address; the system's name for the errno is enough.
    reason = os.strerror(error.errno) if error.errno else str(error)
    if error.errno == errno.EADDRINUSE:
        advice = "another program (a second bot?) has it: set KARATA_HTTP_PORT to a free port"
    elif error.errno == errno.EACCES:
        advice = "ports below 1024 need privileges: set KARATA_HTTP_PORT to 1024 or above"
    else:
        advice = "set KARATA_HTTP_LISTEN to an address of this machine (127.0.0.1, or 0.0.0.0 for all)"
    return f"karata: the HTTP server cannot listen on {listen}:{port} ({reason.lower()}); {advice}"


def bind(listen: str, port: int) -> socket.socket:
    """The HTTP server's listening socket, taken before anything slower (Telegram's first answer
    can take minutes): a port another program has is said at once, in one line."""
    try:
        family, kind, protocol, _, address = socket.getaddrinfo(
            listen, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        listener = socket.socket(family, kind, protocol)
    except OSError as error:
        raise CannotListen(_why_not(error, listen, port)) from None
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as aiohttp's own sites do
        listener.bind(address)
        listener.listen(LISTEN_BACKLOG)
        listener.setblocking(False)
    except OSError as error:
        listener.close()
        raise CannotListen(_why_not(error, listen, port)) from None
    return listener


class WebServer:
    def __init__(
        self, listen: str, port: int, idle_seconds: float = IDLE_SECONDS, listener: socket.socket | None = None
    ):
        self.listen = listen
        # 0 lets the system choose a free port (tests); `port` is the bound one once started.
        self.port = port
        self.idle_seconds = idle_seconds
        # Bound already (`bind`, by `karata run` first thing), or at `start`.
        self.listener = listener
        self.app = web.Application(client_max_size=MAX_UPDATE_BYTES, middlewares=[unreadable_body])
        self._runner: web.AppRunner | None = None

    def add_routes(self, routes: list[web.RouteDef]) -> None:
        self.app.add_routes(routes)

    def mount(self, prefix: str, subapp: web.Application) -> None:
        self.app.add_subapp(prefix, subapp)

    async def start(self) -> None:
        # No access log: a line per press would drown the log's events (and webhook paths may
        # be secret).
        self._runner = web.AppRunner(
            self.app,
            access_log=None,
            handle_signals=False,
            keepalive_timeout=self.idle_seconds,
            logger=MalformedRequests(logging.getLogger("aiohttp.server")),
        )
        await self._runner.setup()
        try:
            listener = self.listener or bind(self.listen, self.port)
        except CannotListen:
            await self.stop()
            raise
        await web.SockSite(self._runner, listener).start()
        self.port = self._runner.addresses[0][1]
        log.info("HTTP server listening on %s:%d", self.listen, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None


@web.middleware
async def unreadable_body(request: web.Request, handler: Callable[..., Any]) -> web.StreamResponse:
    """A body that cannot be read (a gzip that is not, a chunk that lies) is the sender's fault."""
    try:
        return await handler(request)
    except web.RequestPayloadError:
        raise web.HTTPBadRequest(text="the body could not be read") from None


class MalformedRequests(logging.LoggerAdapter):
    """aiohttp's server log, where a request its parser refuses (answered 400: an 8 KB header,
    Content-Length with Transfer-Encoding, TLS on the plain port) or whose body cannot be read is
    one INFO line without a traceback, at most once a minute, counting those since the last:
    anybody can send them, and a traceback each would flood the log. A client that leaves
    mid-request is a DEBUG line. Anything else (a handler's own failure) is logged as aiohttp
    logs it."""

    def __init__(self, logger: logging.Logger, every: float = MALFORMED_LOG_SECONDS, clock=time.monotonic):
        super().__init__(logger, {})
        self.every, self.clock = every, clock
        self._next_line = -math.inf
        self._unsaid = 0

    def log(self, level: int, msg: object, *args: Any, exc_info: Any = None, **kwargs: Any) -> None:
        if isinstance(exc_info, ConnectionResetError):
            super().log(logging.DEBUG, msg, *args, exc_info=exc_info, **kwargs)
            return
        if not isinstance(exc_info, (HttpProcessingError, web.RequestPayloadError)):
            super().log(level, msg, *args, exc_info=exc_info, **kwargs)
            return
        if self.clock() < self._next_line:
            self._unsaid += 1
            return
        self._next_line = self.clock() + self.every
        since = f" ({self._unsaid} more since the last such line)" if self._unsaid else ""
        self._unsaid = 0
        reason = " ".join(str(getattr(exc_info, "message", exc_info)).split())[:200]
        remote = args[0] if args else "?"
        self.logger.info("malformed HTTP request from %s: %s%s", remote, reason, since)


def secret_matches(given: str, secret: str) -> bool:
    """Constant-time, on bytes: `hmac.compare_digest` refuses a str with non-ASCII characters."""
    return hmac.compare_digest(given.encode("utf-8", "replace"), secret.encode("utf-8"))


def webhook_routes(
    application: Application, path: str, secret: str | None, delivered: Callable[[], None] | None = None
) -> list[web.RouteDef]:
    """Telegram posts each update to `path`; with a secret, an update without it is refused, so
    that nobody who guesses the URL can play for someone else."""

    async def receive(request: web.Request) -> web.Response:
        if secret is not None and not secret_matches(request.headers.get(SECRET_HEADER, ""), secret):
            return web.Response(status=403, text="wrong secret token")
        try:
            async with asyncio.timeout(BODY_SECONDS):
                raw = await request.read()
        except TimeoutError:
            too_slow = web.Response(status=408, text="the body came too slowly")
            too_slow.force_close()  # RFC 9110: a 408 closes the connection
            return too_slow
        try:
            update = read_update(raw, application.bot)
        except NotAnUpdate:
            return web.Response(status=400, text="not an update")
        await application.update_queue.put(update)
        if delivered is not None:
            delivered()  # the health check's sign that Telegram reaches us
        return web.Response(text="ok")

    return [web.post("/" + path.lstrip("/"), receive)]
