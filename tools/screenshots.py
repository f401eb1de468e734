"""Screenshots of the Mini App for the README: each game at 360x740, light and dark, Swahili and
English, as docs/screenshots/<game>-<language>-<theme>.png.

It runs the real bot against the built-in fake Telegram (as `karata demo` does) with the Mini
App on, lets simulated players make a few moves, then opens the page in headless Chromium as a
player whose turn it is. Needs Debian's chromium and chromium-driver and selenium (the test
extra). Run from the repository root: python tools/screenshots.py [GAME ...]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.demo import DEMO_TOKEN, Simulation, demo_settings  # noqa: E402
from bot.runner import running_application  # noqa: E402
from bot.services import services_of  # noqa: E402
from fakeapi import FakeBotAPI  # noqa: E402
from fakeapi.webapp import sign_init_data  # noqa: E402
from tests.webapp.browser.browser import Browser, app_url, missing  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
# Players at the table and random moves made before the picture, per game: far enough in that
# the centre of the table has something on it.
GAMES = {"kadi": (3, 5), "lopti": (3, 7), "euchre3": (3, 5), "pitch": (3, 5), "three_thirteen": (3, 12)}
PUBLIC_URL = "https://karata.example/app/"


async def shoot(browser: Browser, game: str, language: str, seed: int) -> list[Path]:
    players, moves = GAMES[game]
    with tempfile.TemporaryDirectory() as folder:
        async with FakeBotAPI() as api:
            simulation = Simulation.create(api, players, seed, language)
            settings = demo_settings(
                api, str(Path(folder) / "shots.db"), language, KARATA_WEBAPP_URL=PUBLIC_URL, KARATA_TURN_SECONDS=90
            )
            async with running_application(settings) as application:
                simulation.application = application
                await api.settle(quiet=0.05)
                await simulation.open_table(game)
                for _ in range(moves):
                    if not await simulation.step():
                        break
                karata = application.bot_data["karata"]
                await karata.publisher.flush()
                table = await karata.service.store.live_table(simulation.group_id, 0)
                loaded = await karata.service.load(table.table_id)
                acting = loaded.game.to_act(loaded.state)
                user = next((u for u in simulation.users if str(u.id) in acting), simulation.users[0])
                init = sign_init_data(
                    DEMO_TOKEN, {"id": user.id, "first_name": user.first_name, "language_code": language}
                )
                base = f"http://127.0.0.1:{services_of(application).web.port}/app/"
                shots = []
                for theme in ("light", "dark"):
                    path = OUT / f"{game}-{language}-{theme}.png"
                    await asyncio.to_thread(picture, browser, app_url(base, init, theme), path)
                    shots.append(path)
                # The page's live socket closes with it: the bot's server then stops at once.
                await asyncio.to_thread(browser.driver.get, "about:blank")
                return shots


def picture(browser: Browser, url: str, path: Path) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    driver = browser.driver
    driver.get("about:blank")
    driver.get(url)
    WebDriverWait(driver, 10).until(lambda d: d.find_elements("css selector", "#prompt, #fatal"))
    time.sleep(0.3)  # fonts and the timer's first tick
    driver.save_screenshot(str(path))
    # Telegram's script keeps the theme in sessionStorage, ahead of the URL's: the next picture
    # starts clean.
    driver.execute_script("sessionStorage.clear()")


async def main(games: list[str], languages: list[str], seed: int) -> int:
    reason = missing()
    if reason:
        print(reason)
        return 1
    OUT.mkdir(parents=True, exist_ok=True)
    browser = Browser()
    try:
        for game in games:
            for language in languages:
                for path in await shoot(browser, game, language, seed):
                    print(path.relative_to(ROOT))
    finally:
        browser.close()
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", metavar="GAME", help=f"games (default: all of {', '.join(GAMES)})")
    parser.add_argument("--language", action="append", choices=["sw", "en"])
    parser.add_argument("--seed", type=int, default=3)
    arguments = parser.parse_args()
    unknown = [game for game in arguments.games if game not in GAMES]
    if unknown:
        parser.error(f"unknown game {unknown[0]!r}")
    sys.exit(asyncio.run(main(arguments.games or list(GAMES), arguments.language or ["sw", "en"], arguments.seed)))
