"""The Mini App's HTTP routes (docs/MINIAPP.md is the contract): the page, its API and the live
socket, as an aiohttp sub-application that bot/ mounts under /app/ on the bot's one server.

Every request is authenticated by the initData Telegram signed (auth.py) and nothing else; a
move goes through the same door as a chat press (handlers/moves.py) under the table's lock, so
the app can do exactly what the keyboard can and is refused what it is refused. A move loads its
table once (under the lock) and is answered with the table as it left it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web
from telegram import Bot

from handlers.context import Karata
from handlers.i18n import Translator, reader_translator
from handlers.presentation.callback_data import KEY, MAX_ID, TreeNode
from handlers.presentation.games import renderer_for
from handlers.presentation.games.base import PROPOSALS_KEY
from handlers.presentation.refusals import outcome_text
from handlers.presentation.render.common import game_title
from handlers.webapp.auth import BadInitData, WebAppUser, check_init_data, claimed_language, secret_key
from handlers.webapp.live import Connection, LiveTables
from handlers.webapp.snapshot import snapshot
from handlers.webapp.watch import WatchScreens, may_watch, watched_id
from tables.models import Loaded, Outcome

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
INIT_HEADER = "X-Telegram-Init-Data"
MAX_BODY = 4096
FIRST_MESSAGE_SECONDS = 10.0
# How long a closing socket waits for the page's close frame: a stop must not wait on a page.
CLOSE_SECONDS = 2.0
# The page loads nothing from anywhere but this server, talks to nothing else (its live socket
# included: 'self' covers ws/wss to the page's own host, docs/MINIAPP.md says where), and is
# framed only by Telegram. The one policy of every response that serves the page.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors https://web.telegram.org https://*.telegram.org 'self'"
)
# A number in a path, a query or a digest: ASCII digits only (`str.isdigit` also takes "²" and
# "①", which `int` refuses), and few enough that `int` is quick.
DIGITS = re.compile(r"[0-9]{1,16}")
# HTTP status of each refusal the API answers with (the rest: 409, the move does not stand now).
STATUS = {"no_table": 404, "not_seated": 403, "not_in_session": 403, "malformed": 400, "unknown_button": 409}

KARATA = web.AppKey("karata", Karata)
LIVE_KEY = web.AppKey("live", LiveTables)
BOT = web.AppKey("bot", Bot)
SECRET = web.AppKey("secret", bytes)
CLOCK = web.AppKey("clock", Callable)
SOCKETS = web.AppKey("sockets", set)
STATIC_FILES = web.AppKey("static_files", dict)
WATCH_SCREENS = web.AppKey("watch_screens", WatchScreens)


class ApiError(Exception):
    """A refusal: its HTTP status, its code, and its sentence in `language` (the page says the rest
    of its error screen in that language too)."""

    def __init__(self, status: int, code: str, message: str, language: str | None = None):
        super().__init__(code)
        self.status, self.code, self.message, self.language = status, code, message, language


def refusal(code: str, message: str, language: str | None = None) -> dict[str, str]:
    found = {"error": code, "message": message}
    return found | {"language": language} if language else found


def error(status: int, code: str, message: str, language: str | None = None) -> web.Response:
    return web.json_response(refusal(code, message, language), status=status)


def _fallback(request: web.Request) -> Translator:
    """The language of an answer before we know the user (a forged initData): their browser's."""
    accept = request.headers.get("Accept-Language", "")
    return reader_translator(None, accept[:2].lower() if accept else None)


async def reader_language(karata: Karata, user: WebAppUser) -> Translator:
    found = await karata.store.get_user(user.id)
    return reader_translator(found.language if found else None, user.language_code)


async def authenticate(app: web.Application, init_data: str, request: web.Request) -> WebAppUser:
    """The user the initData vouches for, or a refusal in their language: the one they chose with
    us when Telegram signed who they are (an expired initData), else the one the initData claims
    (as the page guesses it), else their browser's."""
    try:
        return check_init_data(init_data, app[SECRET], app[CLOCK]())
    except BadInitData as bad:
        if bad.user is not None:
            _ = await reader_language(app[KARATA], bad.user)
            raise ApiError(
                401, "expired", _("This page has been open too long: close it and open the table again."), _.language
            ) from None
        claimed = claimed_language(init_data)
        _ = reader_translator(None, claimed) if claimed else _fallback(request)
        raise ApiError(
            401, "unauthorized", _("Open the table from Telegram: this page could not tell who you are."), _.language
        ) from None


async def _user(request: web.Request) -> tuple[WebAppUser, Translator]:
    user = await authenticate(request.app, request.headers.get(INIT_HEADER, ""), request)
    return user, await reader_language(request.app[KARATA], user)


def parse_id(text: str | None) -> int | None:
    """A table id as the page sends it (in a path or a query), or None when it is not one."""
    if text is None or not DIGITS.fullmatch(text) or not 0 < int(text) < MAX_ID:
        return None
    return int(text)


def parse_json(raw: str | bytes) -> Any:
    """JSON, or None when it is not (nested thousands deep included: a RecursionError)."""
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        return None


def _table_id(request: web.Request, _: Translator) -> int:
    table_id = parse_id(request.match_info.get("table"))
    if table_id is None:
        raise ApiError(404, "no_table", _("There is no such table."))
    return table_id


async def _body(request: web.Request, _: Translator) -> dict[str, Any]:
    if request.content_length is not None and request.content_length > MAX_BODY:
        raise ApiError(413, "too_large", _("That request is too long."))
    raw = await request.content.read(MAX_BODY + 1)
    if len(raw) > MAX_BODY:
        raise ApiError(413, "too_large", _("That request is too long."))
    body = parse_json(raw)
    if not isinstance(body, dict):
        raise ApiError(400, "malformed", _("That request could not be read."))
    return body


def _int(body: dict[str, Any], key: str, _: Translator, low: int = 0, high: int = MAX_ID) -> int:
    value = body.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ApiError(400, "malformed", _("That request could not be read."))
    return value


async def _readable(karata: Karata, table_id: int, user: WebAppUser, _: Translator) -> Loaded:
    """The table, if this user sits at it or opened the app with its watch link; another table
    answers as if it were not there to them (403, and nothing of it)."""
    loaded = await karata.service.load(table_id)
    if loaded is None:
        raise ApiError(404, "no_table", _("There is no such table."))
    if loaded.table.seat_of(user.id) is None and not may_watch(loaded.table, user.start_param):
        raise ApiError(403, "not_seated", _("You are not playing at this table."))
    return loaded


def _player(loaded: Loaded, user: WebAppUser) -> str:
    seat = loaded.table.seat_of(user.id)
    assert seat is not None
    return seat.player


def snapshot_of(app: web.Application, loaded: Loaded, user: WebAppUser, _: Translator) -> dict[str, Any]:
    """A player's snapshot of their seat, with how many watch the table."""
    table = loaded.table
    found = snapshot(
        table,
        loaded.game,
        loaded.state,
        _player(loaded, user),
        _,
        app[CLOCK](),
        app[KARATA].moves.branches.of(table.table_id, user.id),
    )
    found["chat_url"] = chat_url(app)
    found["watchers"] = app[LIVE_KEY].watchers(table.table_id)
    return found


def watcher_text(app: web.Application, loaded: Loaded, _: Translator) -> str:
    """A watcher's frame: the table's seat-less snapshot, one text for all its watchers."""

    def extra(found: dict[str, Any]) -> None:
        found["chat_url"] = chat_url(app)

    return app[WATCH_SCREENS].text(loaded, _, extra)


def chat_url(app: web.Application) -> str | None:
    """The private chat with the bot (the rule builder and proposals stay there)."""
    return f"https://t.me/{app[BOT].username}" if app[BOT].username else None


def _refusal(outcome: Outcome, user: WebAppUser, _: Translator) -> ApiError:
    """A refused move, said as the keyboard says it; a table the user does not sit at answers
    as if it were not there to them (403, and nothing of it)."""
    if outcome.table is not None and outcome.table.seat_of(user.id) is None:
        return ApiError(403, "not_seated", _("You are not playing at this table."))
    texts = renderer_for(outcome.table.game).refusal_texts if outcome.table is not None else None
    code = outcome.code or "refused"
    return ApiError(STATUS.get(code, 409), code, outcome_text(outcome, _, texts))


async def _moved(
    app: web.Application, user: WebAppUser, _: Translator, table_id: int, move: Callable[[], Awaitable[Outcome]]
) -> web.Response:
    """Make a move of the user's (a tap, a table button) and answer with the table it left: the
    page that moved is answered here, so its socket is not sent the same revision again."""
    live = app[LIVE_KEY]
    held = live.hold(table_id, user.id)
    answered = -1
    try:
        outcome = await move()
        if not outcome.ok or outcome.loaded is None:
            raise _refusal(outcome, user, _)
        found = snapshot_of(app, outcome.loaded, user, _)
        answered = outcome.loaded.table.revision
    finally:
        live.release(held, answered)
    return web.json_response(found)


# ----- routes -----------------------------------------------------------------------------------
async def index(request: web.Request) -> web.StreamResponse:
    page = STATIC / "index.html"
    if not page.is_file():
        return web.Response(status=503, text="the Mini App's page is not installed")
    return web.FileResponse(page, headers={"Cache-Control": "no-cache"})


def static_files() -> dict[str, Path]:
    """The page's files by their path under static/, listed once: a request names one of them or
    gets 404, and no name from outside (an over-long one would fail with ENAMETOOLONG) ever
    reaches the file system."""
    if not STATIC.is_dir():
        return {}
    files = (path for path in STATIC.rglob("*") if path.is_file() and not path.is_symlink())
    return {path.relative_to(STATIC).as_posix(): path for path in files}


async def static(request: web.Request) -> web.StreamResponse:
    found = request.app[STATIC_FILES].get(request.match_info["name"])
    if found is None:
        raise web.HTTPNotFound(text="no such file")
    return web.FileResponse(found)


async def policy(_request: web.Request, response: web.StreamResponse) -> None:
    """Every answer of the app carries the page's Content-Security-Policy: the page itself at
    /app/ and at /app/static/index.html alike."""
    response.headers["Content-Security-Policy"] = CSP


async def me(request: web.Request) -> web.Response:
    user, _ = await _user(request)
    karata = request.app[KARATA]
    tables = sorted(await karata.store.live_tables_of_user(user.id), key=lambda table: table.updated_at)
    listed = [{"id": table.table_id, "game": table.game, "title": game_title(table.game, _)} for table in tables]
    asked = request.query.get("table")
    if asked is not None and parse_id(asked) is None:
        raise ApiError(400, "malformed", _("That request could not be read."))
    start = user.start_param
    wanted = parse_id(start[1:] if start and start.startswith("t") else asked)
    ids = [entry["id"] for entry in listed]
    current = wanted if wanted in ids else (ids[-1] if ids else None)
    watch = await _watched(karata, user)
    if watch is not None:  # a player who follows their own table's watch link plays it
        current = watch
    return web.json_response({
        "user": {"id": user.id, "name": user.name},
        "language": _.language,
        "theme": None,
        "tables": listed,
        "current": current,
        "chat_url": chat_url(request.app),
        "watch": watch,
    })  # fmt: skip


async def _watched(karata: Karata, user: WebAppUser) -> int | None:
    """The table the app was opened to watch (its link's token checked), or None."""
    table_id = watched_id(user.start_param)
    if table_id is None:
        return None
    loaded = await karata.service.load(table_id)
    return table_id if loaded is not None and may_watch(loaded.table, user.start_param) else None


async def table(request: web.Request) -> web.Response:
    user, _ = await _user(request)
    loaded = await _readable(request.app[KARATA], _table_id(request, _), user, _)
    if loaded.table.seat_of(user.id) is None:
        return web.Response(text=watcher_text(request.app, loaded, _), content_type="application/json")
    return web.json_response(snapshot_of(request.app, loaded, user, _))


async def press(request: web.Request) -> web.Response:
    """A tap on a node of the action tree, as the chat's keyboard would press it."""
    user, _ = await _user(request)
    table_id = _table_id(request, _)
    body = await _body(request, _)
    version = _int(body, "version", _)
    node = _int(body, "node", _, 0, 10**6)
    digest = body.get("digest")
    if not isinstance(digest, str) or not DIGITS.fullmatch(digest) or len(digest) > 12:
        raise ApiError(400, "malformed", _("That request could not be read."))
    moves = request.app[KARATA].moves
    tap = TreeNode(table_id, int(digest), node)
    return await _moved(request.app, user, _, table_id, lambda: moves.press(table_id, user.id, tap, _, version))


async def button(request: web.Request) -> web.Response:
    """A button of the group table ("Kadi Moja!", accuse), as play.press_table_button presses it.
    A costly button's warning is the page's to show before it posts."""
    user, _ = await _user(request)
    table_id = _table_id(request, _)
    body = await _body(request, _)
    version = _int(body, "version", _)
    name = body.get("name")
    if not isinstance(name, str) or not KEY.fullmatch(name):
        raise ApiError(400, "malformed", _("That request could not be read."))
    if name == PROPOSALS_KEY:
        raise ApiError(409, "in_chat", _("Choose your proposal in our private chat."))
    moves = request.app[KARATA].moves
    return await _moved(request.app, user, _, table_id, lambda: moves.table_button(table_id, user.id, name, version, _))


async def live_socket(request: web.Request) -> web.StreamResponse:
    """The live feed of one table: the first message authenticates; then the table's snapshot at
    once and whenever the table changes, a ping when nothing does."""
    app = request.app
    socket = web.WebSocketResponse(max_msg_size=MAX_BODY * 2, timeout=CLOSE_SECONDS)
    await socket.prepare(request)
    app[SOCKETS].add(socket)
    try:
        return await _live(request, socket)
    finally:
        app[SOCKETS].discard(socket)


async def _live(request: web.Request, socket: web.WebSocketResponse) -> web.StreamResponse:
    app = request.app
    karata, live = app[KARATA], app[LIVE_KEY]
    try:
        first = await socket.receive(timeout=FIRST_MESSAGE_SECONDS)
        if first.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED, WSMsgType.ERROR):
            return socket  # the page left, or the server is stopping
        hello = parse_json(first.data) if first.type == WSMsgType.TEXT else None
        if not isinstance(hello, dict) or not isinstance(hello.get("initData"), str):
            raise ApiError(400, "malformed", _fallback(request)("That request could not be read."))
        user = await authenticate(app, hello["initData"], request)
        _ = await reader_language(karata, user)
        table_id = _table_id(request, _)
        loaded = await _readable(karata, table_id, user, _)
    except ApiError as refused:
        await socket.send_json({"type": "error", **refusal(refused.code, refused.message, refused.language)})
        await socket.close()
        return socket
    except TimeoutError:
        await socket.close()
        return socket

    watcher = loaded.table.seat_of(user.id) is None

    async def send(current: Loaded) -> None:
        if watcher:
            text = watcher_text(app, current, _)
        elif current.table.seat_of(user.id) is None:
            await socket.close()
            return
        else:
            text = json.dumps({"type": "snapshot", **snapshot_of(app, current, user, _)}, ensure_ascii=False)
        if not socket.closed:
            await socket.send_str(text)

    async def told(count: int) -> None:
        if not socket.closed:
            await socket.send_json({"type": "watchers", "count": count})

    async def ping() -> None:
        if not socket.closed:
            await socket.send_json({"type": "ping"})

    async def displaced() -> None:
        message = _("This table is open in too many windows: this one has closed. Reload it to play here.")
        await socket.send_json({"type": "error", "error": "too_many_windows", "message": message})
        await socket.close(code=WSCloseCode.POLICY_VIOLATION)

    connection = Connection(table_id, user.id, send, displaced, watcher, None if watcher else told)
    live.add(connection)
    # The current state at once, whatever the page holds: a page that reconnects always draws
    # the table as it stands (it keeps only what is newer).
    connection.push(loaded)
    writer = asyncio.get_running_loop().create_task(connection.run(ping, live.yield_to))
    try:
        async for message in socket:
            if message.type in (WSMsgType.ERROR, WSMsgType.CLOSE):
                break  # anything else the page says is not needed: it moves over HTTP
    finally:
        live.remove(connection)
        writer.cancel()
    return socket


async def close_sockets(app: web.Application) -> None:
    """A graceful stop closes every open app's socket at once, saying the server is going away
    (the page reconnects a little later): the server would otherwise wait for each of them."""
    sockets = list(app[SOCKETS])
    await asyncio.gather(*(socket.close(code=WSCloseCode.GOING_AWAY) for socket in sockets), return_exceptions=True)


@web.middleware
async def json_errors(request: web.Request, handler: Callable[..., Any]) -> web.StreamResponse:
    try:
        return await handler(request)
    except ApiError as refused:
        return error(refused.status, refused.code, refused.message, refused.language)


def webapp(
    karata: Karata, live: LiveTables, bot: Bot, token: str, clock: Callable[[], float] = time.time
) -> web.Application:
    """The Mini App as an aiohttp application (mounted under /app/ by bot/webapp.py)."""
    app = web.Application(middlewares=[json_errors], client_max_size=MAX_BODY)
    app[KARATA] = karata
    app[LIVE_KEY] = live
    app[BOT] = bot
    app[SECRET] = secret_key(token)
    app[CLOCK] = clock
    app[SOCKETS] = set()
    app[STATIC_FILES] = static_files()
    app[WATCH_SCREENS] = WatchScreens(clock)
    app.on_shutdown.append(close_sockets)
    app.on_response_prepare.append(policy)
    app.router.add_get("/", index)
    app.router.add_get("/static/{name:.+}", static)
    app.router.add_get("/api/me", me)
    app.router.add_get("/api/table/{table}", table)
    app.router.add_post("/api/table/{table}/press", press)
    app.router.add_post("/api/table/{table}/button", button)
    app.router.add_get("/api/table/{table}/live", live_socket)
    return app
