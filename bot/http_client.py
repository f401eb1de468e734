"""python-telegram-bot's HTTP requests made with aiohttp instead of httpx.

Every press costs the bot an answer and about two edits, and under load the bot spent half its
CPU inside httpx and httpcore (docs/PERFORMANCE.md): aiohttp's client does the same call for
about a third of the CPU. PTB ships only an httpx request and its own aiohttp request lives in
ptbcontrib, which is not on PyPI; this is the small adapter PTB's `BaseRequest` is made for.
Retries, flood waits and error parsing stay PTB's: this only moves bytes.
"""

from __future__ import annotations

import asyncio
import ssl
import urllib.request
from collections.abc import Callable
from urllib.parse import urlsplit

import aiohttp
from telegram._utils.defaultvalue import DefaultValue
from telegram._utils.types import ODVInput
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

_FORM = {"Content-Type": "application/x-www-form-urlencoded"}


class AiohttpRequest(BaseRequest):
    """One aiohttp session with a pool of `connection_pool_size` connections. The timeouts mean
    what HTTPXRequest's mean, except that the wait for a free connection counts towards the
    connect timeout (aiohttp measures them together) and aiohttp has no write timeout: a body
    is written within the read timeout's clock."""

    __slots__ = ("_pool_size", "_tls", "_timeouts", "_session", "_proxies", "on_answer", "on_refused")

    def __init__(
        self,
        connection_pool_size: int = 256,
        read_timeout: float | None = 5.0,
        connect_timeout: float | None = 5.0,
        pool_timeout: float | None = 1.0,
        tls: ssl.SSLContext | bool = True,
        on_answer: Callable[[], None] | None = None,
        on_refused: Callable[[], None] | None = None,
    ):
        self._pool_size = connection_pool_size
        self._tls = tls
        self._timeouts = {"read": read_timeout, "connect": connect_timeout, "pool": pool_timeout}
        self._session: aiohttp.ClientSession | None = None
        self._proxies: dict[tuple[str, str], str | None] = {}
        # Called after every answer with status 200 (the health check watches getUpdates').
        self.on_answer = on_answer
        # Called after every 401: Telegram no longer takes the token (revoked), for good.
        self.on_refused = on_refused

    @property
    def read_timeout(self) -> float | None:
        return self._timeouts["read"]

    async def initialize(self) -> None:
        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(limit=self._pool_size, ssl=self._tls)
            self._session = aiohttp.ClientSession(
                connector=connector,
                headers={"User-Agent": self.USER_AGENT},
                skip_auto_headers=("Accept-Encoding",),
            )

    async def shutdown(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        write_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        connect_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        pool_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        if self._session is None or self._session.closed:
            raise RuntimeError("This AiohttpRequest is not initialized!")
        files = request_data.multipart_data if request_data else None
        read = self._given(read_timeout, "read")
        connect = self._given(connect_timeout, "connect")
        pool = self._given(pool_timeout, "pool")
        timeout = aiohttp.ClientTimeout(
            total=None,
            connect=None if connect is None and pool is None else (connect or 0) + (pool or 0),
            sock_connect=connect,
            sock_read=read,
        )
        data, headers = self._body(request_data, files)
        proxy = self._proxy_for(url)
        try:
            async with self._session.request(
                method, url, data=data, headers=headers, timeout=timeout, proxy=proxy
            ) as response:
                body = await response.read()
                if response.status == 200 and self.on_answer is not None:
                    self.on_answer()
                elif response.status == 401 and self.on_refused is not None:
                    self.on_refused()
                return response.status, body
        except (asyncio.TimeoutError, aiohttp.ServerTimeoutError) as error:
            raise TimedOut from error
        except aiohttp.ClientError as error:
            raise NetworkError(f"aiohttp.{error.__class__.__name__}: {error}") from error

    def _proxy_for(self, url: str) -> str | None:
        """The proxy HTTPS_PROXY / HTTP_PROXY name for this URL's scheme, unless NO_PROXY exempts
        its host, as httpx honoured them. Read once per scheme and host: aiohttp's own
        `trust_env` reads the environment and ~/.netrc again on every call, which cost about a
        quarter of the bot's CPU per move."""
        parts = urlsplit(url)
        key = (parts.scheme, parts.hostname or "")
        if key not in self._proxies:
            proxy = urllib.request.getproxies().get(parts.scheme)
            self._proxies[key] = None if proxy and urllib.request.proxy_bypass(key[1]) else proxy
        return self._proxies[key]

    def _given(self, value: ODVInput[float], name: str) -> float | None:
        return self._timeouts[name] if isinstance(value, DefaultValue) else value

    @staticmethod
    def _body(request_data: RequestData | None, files) -> tuple[aiohttp.FormData | bytes | None, dict[str, str] | None]:
        if request_data is None:
            return None, None
        if not files:
            # A form, as PTB's httpx request sends it; encoded here, which costs less than aiohttp's FormData.
            return request_data.url_encoded_parameters().encode(), _FORM
        form = aiohttp.FormData()
        for name, value in request_data.json_parameters.items():
            form.add_field(name, value)
        for name, (filename, content, mime_type) in files.items():
            form.add_field(name, content, filename=filename, content_type=mime_type)
        return form, None
