"""A headless Chromium for the Mini App's page (Debian's `chromium` and `chromium-driver`,
driven by selenium), and the URL a Telegram client would open: the page with initData and the
theme in its hash, as Telegram passes them."""

from __future__ import annotations

import asyncio
import json
import shutil
import tempfile
import threading
from pathlib import Path
from urllib.parse import quote

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
WIDTH, HEIGHT = 360, 740

# Telegram's default themes (what its apps send as themeParams).
THEMES = {
    "light": {
        "bg_color": "#ffffff",
        "text_color": "#000000",
        "hint_color": "#999999",
        "link_color": "#2481cc",
        "button_color": "#2481cc",
        "button_text_color": "#ffffff",
        "secondary_bg_color": "#efeff3",
        "section_bg_color": "#ffffff",
        "destructive_text_color": "#e53935",
    },
    "dark": {
        "bg_color": "#17212b",
        "text_color": "#f5f5f5",
        "hint_color": "#708499",
        "link_color": "#6ab3f3",
        "button_color": "#5288c1",
        "button_text_color": "#ffffff",
        "secondary_bg_color": "#232e3c",
        "section_bg_color": "#17212b",
        "destructive_text_color": "#ec3942",
    },
}


def missing() -> str | None:
    """Why no browser test can run here, or None."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    for path in (CHROMIUM, CHROMEDRIVER):
        if not Path(path).exists():
            return f"no {path}: install Debian's chromium and chromium-driver (.ci/run does)"
    return None


def app_url(base: str, init_data: str, theme: str = "light", start_param: str | None = None) -> str:
    """`base` is the page (…/app/); Telegram puts initData, the theme and its version in the hash."""
    fields = [
        ("tgWebAppData", init_data),
        ("tgWebAppVersion", "8.0"),
        ("tgWebAppPlatform", "android"),
        ("tgWebAppThemeParams", json.dumps(THEMES[theme], separators=(",", ":"))),
    ]
    if start_param:
        fields.append(("tgWebAppStartParam", start_param))
    return base + "#" + "&".join(f"{key}={quote(value, safe='')}" for key, value in fields)


class Browser:
    """One headless Chromium at a phone's size, with a profile of its own."""

    def __init__(self, width: int = WIDTH, height: int = HEIGHT):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        self.profile = tempfile.mkdtemp(prefix="karata-chromium-")
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for argument in (
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
            f"--user-data-dir={self.profile}",
            f"--window-size={width},{height}",
        ):
            options.add_argument(argument)
        self.driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
        self.size = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True}
        self._emulate_phone()

    def _emulate_phone(self) -> None:
        # --window-size counts the window's frame in some versions: make the page itself 360 wide.
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", self.size)

    def fresh_tab(self) -> bool:
        """Swaps the used tab for a new one (its page, live socket and sessionStorage gone), so
        that the next test finds the browser as started; False when the browser is broken."""
        from selenium.common.exceptions import WebDriverException

        try:
            used = self.driver.current_window_handle
            self.driver.switch_to.new_window("tab")
            new = self.driver.current_window_handle
            self.driver.switch_to.window(used)
            self.driver.close()
            self.driver.switch_to.window(new)
            self._emulate_phone()
        except WebDriverException:
            return False
        return True

    def close(self) -> None:
        try:
            self.driver.quit()
        finally:
            shutil.rmtree(self.profile, ignore_errors=True)


class ServerThread:
    """An aiohttp application served on 127.0.0.1 from a thread of its own (selenium blocks)."""

    def __init__(self, app):
        self.app = app
        self.loop = asyncio.new_event_loop()
        self.port = 0
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        from aiohttp import web

        asyncio.set_event_loop(self.loop)
        self.runner = web.AppRunner(self.app, access_log=None)
        self.loop.run_until_complete(self.runner.setup())
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        self.loop.run_until_complete(site.start())
        self.port = self.runner.addresses[0][1]
        self._ready.set()
        self.loop.run_forever()
        self.loop.run_until_complete(self.runner.cleanup())

    def __enter__(self) -> ServerThread:
        self._thread.start()
        self._ready.wait(10)
        return self

    def __exit__(self, *exc) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}/app/"
