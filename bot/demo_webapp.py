"""`karata demo [GAME] --webapp`: the Mini App in a browser, on this machine, against the real bot
and the built-in fake Telegram.

The bot serves the app on 127.0.0.1 (plain http is allowed there: bot/settings.py); a group table
is opened and dealt with the person at the browser in the first seat (a second browser seat on
request) and computer players on the others, who move by themselves. A browser is not Telegram,
so each browser seat gets a URL that carries what Telegram would put in it: a freshly signed
initData and a theme in the hash (`#tgWebAppData=...&tgWebAppThemeParams=...`), which Telegram's
own script (static/telegram-web-app.js) reads. It runs until Ctrl-C.
"""

from __future__ import annotations

import asyncio
import json
import signal
import socket
import tempfile
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

from bot.demo import DEMO_TOKEN, Simulation, demo_settings
from fakeapi import FakeBotAPI, FakeUser
from fakeapi.webapp import sign_init_data

# Telegram's light theme, as its clients pass it (the page's colours follow it).
LIGHT_THEME = {
    "bg_color": "#ffffff", "text_color": "#000000", "hint_color": "#999999", "link_color": "#2481cc",
    "button_color": "#2481cc", "button_text_color": "#ffffff", "secondary_bg_color": "#efeff4",
}  # fmt: skip


def free_port() -> int:
    """A port free on 127.0.0.1 now: the app's URL (in every button) must name it before the
    bot's server starts."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def app_url(base: str, table_id: int, user: FakeUser, language: str) -> str:
    """The URL Telegram would open for `user`: the app on their table, their signed identity and
    the theme in the hash."""
    person = {"id": user.id, "first_name": user.first_name, "language_code": language}
    init_data = sign_init_data(DEMO_TOKEN, person)
    fragment = "&".join(
        f"{key}={quote(value, safe='')}"
        for key, value in (
            ("tgWebAppData", init_data),
            ("tgWebAppVersion", "8.0"),
            ("tgWebAppPlatform", "web"),
            ("tgWebAppThemeParams", json.dumps(LIGHT_THEME, separators=(",", ":"))),
        )
    )
    return f"{base}?table={table_id}#{fragment}"


async def deal_with_computers(api: FakeBotAPI, sim: Simulation, game: str, computers: int) -> None:
    """The first user opens a table in the group, the other users join by its link, the first
    adds `computers` computer players and starts it."""
    creator = sim.users[0]
    await api.user_starts_bot(creator)
    await api.send_text(creator, sim.group_id, f"/newgame {game}")
    lobby = await api.wait_until(sim.table_message, timeout=10, what="the lobby message")
    join_url = next(data for row in lobby.buttons for _, data in row if (data or "").startswith("https://"))
    for user in sim.users[1:]:
        await api.open_link(user, join_url)
        await api.settle(quiet=0.05)
    for _count in range(computers):
        lobby = sim.table_message() or lobby
        add = next((data for row in lobby.buttons for label, data in row if label.startswith("🤖") and data), None)
        if add is None:
            break  # the table is full
        await api.wait_for_answer(await api.press(creator, sim.group_id, lobby.message_id, add))
        await api.settle(quiet=0.05)
    lobby = sim.table_message() or lobby
    start = next(data for row in lobby.buttons for _, data in row if (data or "").endswith(":start"))
    await api.wait_for_answer(await api.press(creator, sim.group_id, lobby.message_id, start))
    await api.settle(quiet=0.05)


async def serve_webapp_demo(
    game: str,
    players: int = 3,
    seed: int = 1,
    language: str = "en",
    humans: int = 1,
    port: int = 0,
    stop: asyncio.Event | None = None,
    say: Callable[[str], None] = print,
) -> int:
    """Serve the app until `stop` is set (Ctrl-C when None); `say` prints the browser's URLs."""
    from bot.runner import running_application
    from engine.registry import available_games, get_game
    from handlers.i18n import translator
    from handlers.presentation.render.common import game_title

    if game not in available_games():
        say(f"karata demo: unknown game {game}; games: {', '.join(available_games())}")
        return 2
    engine = get_game(game)
    humans = max(1, min(humans, engine.max_players))
    seats = max(engine.min_players, min(max(players, humans), engine.max_players))
    port = port or free_port()
    base = f"http://127.0.0.1:{port}/app/"
    with tempfile.TemporaryDirectory() as folder:
        async with FakeBotAPI(token=DEMO_TOKEN) as api:
            sim = Simulation.create(api, humans, seed, language)
            settings = demo_settings(
                api, str(Path(folder) / "demo.db"), language,
                KARATA_HTTP_PORT=port, KARATA_WEBAPP_URL=base,
                # A person plays here: the real turn timer and pause between rounds.
                KARATA_TURN_SECONDS=90, KARATA_ROUND_PAUSE_SECONDS=5,
            )  # fmt: skip
            async with running_application(settings) as application:
                await api.settle(quiet=0.05)
                await deal_with_computers(api, sim, game, seats - humans)
                table = await application.bot_data["karata"].store.live_table(sim.group_id, 0)
                if table is None or table.status != "playing":
                    say("karata demo: the table could not be dealt")
                    return 1
                # The demo's own lines speak its language, as its transcript does.
                _ = translator(language)
                # TRANSLATORS: `karata demo --webapp`: the table is dealt and waits in the browser.
                title, computers = game_title(game, _), len(table.computers)
                say(
                    _.pgettext(
                        "demo",
                        "{game}: the table is dealt. Seats for you in the browser: {humans}; "
                        "computer players: {computers}.",
                        game=title,
                        humans=humans,
                        computers=computers,
                    )
                )
                for index, user in enumerate(sim.users):
                    which = (
                        _.pgettext("demo", "Open this in a browser to play as {name}:", name=user.first_name)
                        if index == 0
                        else _.pgettext(
                            "demo", "Another seat (a second browser tab), to play as {name}:", name=user.first_name
                        )
                    )
                    say(f"{which}\n  {app_url(base, table.table_id, user, language)}")
                say(_.pgettext("demo", "The links are signed for 24 hours. Press Ctrl-C to stop."))
                await _until_stopped(stop)
    return 0


async def _until_stopped(stop: asyncio.Event | None) -> None:
    if stop is None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stop.set)
    await stop.wait()


def run_webapp_demo(game: str, players: int = 3, seed: int = 1, language: str = "en", humans: int = 1) -> int:
    return asyncio.run(serve_webapp_demo(game, players, seed, language, humans))
