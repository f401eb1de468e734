"""A stand-in for the Mini App's API that serves the real page and a fixed snapshot (a fixture
file): the page's drawing is tested without a bot. A press opens the node pressed, as the
server does for a marking tap (its choices are the fixture's `opened` ones for that node), and
answers `refused` for node numbers in `refuse`."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from aiohttp import web

from handlers.webapp.api import INIT_HEADER, STATIC, error

FIXTURES = Path(__file__).resolve().parent / "fixtures"
PRESSES = web.AppKey("presses", list)


def fixture(name: str) -> dict:
    return json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))


def stub_app(snap: dict, good_init: str, refuse: frozenset[int] = frozenset()) -> web.Application:
    presses: list[dict] = []
    current = {"snap": copy.deepcopy(snap)}

    def allowed(request: web.Request) -> bool:
        return request.headers.get(INIT_HEADER) == good_init

    def denied() -> web.Response:
        return error(401, "bad_init_data", "Open the table from Telegram again.")

    async def index(request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "index.html")

    async def me(request: web.Request) -> web.Response:
        if not allowed(request):
            return denied()
        found = current["snap"]
        return web.json_response(
            {
                "user": {"id": 1001, "name": "Amina"},
                "language": found["language"],
                "theme": None,
                "tables": [{"id": found["table"], "game": found["game"], "title": found["title"]}],
                "current": found["table"],
            }
        )

    async def table(request: web.Request) -> web.Response:
        return web.json_response(current["snap"]) if allowed(request) else denied()

    async def press(request: web.Request) -> web.Response:
        if not allowed(request):
            return denied()
        body = await request.json()
        presses.append(body)
        if body["node"] in refuse:
            return error(409, "refused", "That card does not match the top card.")
        opened = current["snap"].get("opened", {}).get(str(body["node"]))
        current["snap"] = {
            **current["snap"],
            "choices": opened or {**current["snap"]["choices"], "at": body["node"], "keys": []},
        }
        return web.json_response(current["snap"])

    async def live(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        async for _message in ws:
            pass
        return ws

    app = web.Application()
    app[PRESSES] = presses
    app.router.add_get("/app/", index)
    app.router.add_static("/app/static/", STATIC)
    app.router.add_get("/app/api/me", me)
    app.router.add_get("/app/api/table/{id}", table)
    app.router.add_post("/app/api/table/{id}/press", press)
    app.router.add_get("/app/api/table/{id}/live", live)
    return app
