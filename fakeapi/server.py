"""FakeBotAPI: a fake Telegram Bot API server for tests, benchmarks and the offline demo.

It speaks the Bot API over real HTTP on 127.0.0.1 (aiohttp.web, random free port), so a real
``telegram.Bot(token, base_url=fake.base_url)`` (or a whole python-telegram-bot Application)
can talk to it unchanged.  The test side drives simulated users through async helpers
(:meth:`send_text`, :meth:`press`, ...; fakeapi.users) and inspects what the bot did
(:meth:`messages`, :attr:`calls`, :meth:`flood_stats`, ...; fakeapi.inspection).

This package imports nothing from the rest of the project.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from fakeapi.changes import ChatChanges
from fakeapi.errors import TelegramAPIError, too_many_requests
from fakeapi.faults import CutConnection, Faults
from fakeapi.flood import COUNTED_METHODS, FloodControl, FloodStats
from fakeapi.inspection import Inspection
from fakeapi.methods.chats import ChatMethods
from fakeapi.methods.messages import MessageMethods
from fakeapi.methods.polls import PollMethods
from fakeapi.methods.profile import ProfileMethods
from fakeapi.methods.queries import QueryMethods
from fakeapi.methods.updates import UpdateMethods
from fakeapi.params import read_params
from fakeapi.records import CallbackQuery, Document, FakeChat, FakeUser, MessageRecord
from fakeapi.users import SimulatedUsers
from fakeapi.world import World


class FakeBotAPI(
    World,
    SimulatedUsers,
    Inspection,
    MessageMethods,
    PollMethods,
    QueryMethods,
    UpdateMethods,
    ProfileMethods,
    ChatMethods,
    ChatChanges,
    Faults,
):
    """Fake Telegram Bot API server. See the module docstring.

    ``clock`` times what benchmarks and flood accounting measure (callback answers, message
    versions, flood windows); inject a controllable one to test minutes without waiting.
    ``flood_limits`` turns on Telegram's flood limits (fakeapi.flood); accounting is always on.
    ``telegram_second`` is how long Telegram's second lasts (fakeapi.flood): tests run its limits
    faster, with the bot's ``KARATA_TELEGRAM_SECOND`` set to the same value.
    """

    def __init__(
        self,
        bot_username: str = "karata_bot",
        bot_id: int = 7000000001,
        bot_first_name: str = "Karata",
        *,
        can_join_groups: bool = True,
        can_read_all_group_messages: bool = False,
        supports_inline_queries: bool = False,
        strict_ampersand: bool = True,
        flood_limits: bool = False,
        clock: Callable[[], float] = time.monotonic,
        telegram_second: float = 1.0,
        first_update_id: int = 100001,
        host: str = "127.0.0.1",
        port: int = 0,
        token: str | None = None,
    ) -> None:
        # With a token set, any other token is refused with 401 Unauthorized, as Telegram does.
        self.token = token
        self.bot_username = bot_username
        self.bot_id = bot_id
        self.bot_first_name = bot_first_name  # also the default name of setMyName/getMyName
        self.can_join_groups = can_join_groups
        self.can_read_all_group_messages = can_read_all_group_messages
        self.supports_inline_queries = supports_inline_queries
        self.strict_ampersand = strict_ampersand
        self.clock = clock
        self.host = host
        self._port = port

        self.users: dict[int, FakeUser] = {}
        self.chats: dict[int, FakeChat] = {}
        self.bot_status: dict[int, str] = {}  # group chat id -> bot's status
        self.bot_rights: dict[int, dict] = {}  # group chat id -> the restricted bot's rights
        self._fault_counts: Counter = Counter()  # fakeapi.faults
        self._messages: dict[int, list[MessageRecord]] = {}
        self._msg_index: dict[tuple[int, int], MessageRecord] = {}
        self._next_msg_id: dict[int, int] = {}
        self.files: dict[str, Document] = {}  # file_id -> every document the bot uploaded

        self.calls: list[tuple[str, dict]] = []  # (method, decoded params) of every request
        self.errors: list[tuple[str, dict, int, str]] = []  # (method, params, code, description)

        self._pending: list[dict] = []
        self._next_update_id = first_update_id
        self._delivered_upto = first_update_id - 1
        self.allowed_updates: list[str] | None = None
        self._poll_gen = 0
        self.webhook: dict[str, Any] = {}

        self.queries: dict[str, CallbackQuery] = {}
        self._next_query = 4_000_000_000_000_000_001
        self.polls: dict[str, dict] = {}
        self._next_poll = 5_000_000_000_000_000_001
        self.commands_store: dict[tuple[tuple, str], list[dict]] = {}  # (scope, language) -> commands
        self.bot_names: dict[str, str] = {}  # language_code -> name (the default is bot_first_name)
        # setChatMenuButton: chat id (as text; "" for every private chat) -> the MenuButton object.
        self.menu_buttons: dict[str, dict] = {}
        self.bot_descriptions: dict[str, str] = {}  # language_code ("" = default) -> text
        self.bot_short_descriptions: dict[str, str] = {}

        self.flood_control = FloodControl(clock, enforce=flood_limits, second=telegram_second)
        self._scripted_floods: dict[str, list[int]] = {}
        self._faults: dict = {}  # method -> scripted 5xx or hang (fakeapi.faults)
        self._message_updates: dict[tuple[int, int], dict] = {}  # (chat, message id) -> its update
        self._query_updates: dict[str, dict] = {}  # callback query id -> the update that carried it
        # What `wait_for_answer` also waits for once the answer is in (a test's choice).
        self.after_answer: Callable[[], Awaitable[Any]] | None = None
        # Whether the bot is still working on something `settle` cannot see (a test's choice).
        self.bot_busy: Callable[[], bool] | None = None

        self._pulse: asyncio.Event | None = None  # created in start(), inside the loop
        self._inflight = 0
        self._last_activity = time.monotonic()
        self._stopping = False
        self._runner: web.AppRunner | None = None
        self.base_url = ""
        self.base_file_url = ""

    # ----------------------------------------------------------------- lifecycle
    async def start(self) -> FakeBotAPI:
        self._pulse = asyncio.Event()
        self._stopping = False
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        app.router.add_route("*", "/{tail:.*}", self._handle_not_found)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.5)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self._port)
        await site.start()
        port = self._runner.addresses[0][1]
        self.port = port
        self.base_url = f"http://{self.host}:{port}/bot"
        self.base_file_url = f"http://{self.host}:{port}/file/bot"
        return self

    async def stop(self) -> None:
        self._stopping = True
        self._notify()
        if self._runner is not None:
            await asyncio.sleep(0)  # let released long polls answer
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeBotAPI:
        return await self.start()

    async def __aexit__(self, *exc: Any) -> None:
        await self.stop()

    def revoke_token(self) -> None:
        """@BotFather's /revoke: from the next call on, the bot's token is refused (401 Unauthorized)."""
        self.token = f"{self.bot_id}:revoked-{time.monotonic_ns()}"

    # ----------------------------------------------------------------- flood control
    def flood(self, method: str, retry_after: int = 1, times: int = 1) -> None:
        """The next ``times`` calls of ``method`` fail with 429 Too Many Requests (no ban follows)."""
        self._scripted_floods[method.lower()] = [int(retry_after), int(times)]

    def flood_chat(self, chat_id: int, retry_after: int) -> None:
        """The next counted call to ``chat_id`` fails with 429 ``retry_after``; the chat is then
        banned for that long, as after any flood 429 (other chats are not)."""
        self.flood_control.flood_chat(chat_id, retry_after)

    def inject_429(self, probability: float, retry_after: int = 5, seed: int = 0) -> None:
        """Drills: each counted call that would be delivered fails with 429 ``retry_after`` with
        ``probability`` (seeded, so a run repeats exactly); the chat is then banned for
        ``retry_after`` like after any flood 429.  ``inject_429(0)`` stops it."""
        self.flood_control.inject(probability, retry_after, seed)

    def flood_stats(self) -> FloodStats:
        """Counted calls, 429s by cause, busiest windows and ban violations so far (a snapshot)."""
        return self.flood_control.stats()

    def _check_flood(self, method: str, params: dict) -> None:
        scripted = self._scripted_floods.get(method.lower())
        if scripted and scripted[1] > 0:
            scripted[1] -= 1
            raise too_many_requests(scripted[0])
        if method.lower() in COUNTED_METHODS:
            try:
                chat_id = self._resolve_chat(params.get("chat_id"))
            except TelegramAPIError:
                return  # the method itself answers "chat not found"
            self.flood_control.check(method, chat_id, is_group=chat_id in self.chats)

    # ----------------------------------------------------------------- HTTP layer
    def _notify(self) -> None:
        """Wake long polls (and anything else waiting on the pulse)."""
        if self._pulse is not None:
            self._pulse.set()
            self._pulse = asyncio.Event()

    def _touch(self) -> None:
        self._last_activity = time.monotonic()

    async def _handle_not_found(self, request: web.Request) -> web.Response:
        return web.json_response({"ok": False, "error_code": 404, "description": "Not Found"}, status=404)

    async def _handle(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        name = method.lower()
        is_poll = name == "getupdates"
        if not is_poll:
            self._inflight += 1
            self._touch()
        params: dict = {}
        try:
            params = await read_params(request)
            self.calls.append((method, params))
            if self.token is not None and request.match_info["token"] != self.token:
                raise TelegramAPIError(401, "Unauthorized")
            await self._fault(method)
            await self._maybe_fault(method, request)
            self._check_flood(method, params)
            handler = getattr(self, "_m_" + name, None)
            if handler is None:
                raise TelegramAPIError(404, "Not Found")
            result = await handler(params)
            if is_poll and result:
                self._touch()
            return web.json_response({"ok": True, "result": result})
        except TelegramAPIError as e:
            gone = request.transport is None or request.transport.is_closing()
            if not (is_poll and gone):  # a long poll the client already abandoned
                self.errors.append((method, params, e.code, e.description))
            return web.json_response(e.to_json(), status=e.code)
        except CutConnection:
            # The connection ends without an answer; the client sees it dropped.
            self.errors.append((method, params, 0, "connection cut"))
            if request.transport is not None:
                request.transport.close()
            return web.Response(status=500)
        except Exception as e:  # a bug in the fake or a malformed parameter: make it loud
            desc = f"Internal Server Error: FakeBotAPI failed on {method}: {e!r}"
            self.errors.append((method, params, 500, desc))
            return web.json_response({"ok": False, "error_code": 500, "description": desc}, status=500)
        finally:
            if not is_poll:
                self._inflight -= 1
                self._touch()
            self._notify()
