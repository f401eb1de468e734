"""Browser tests: headless Chromium (browser.py) on the page, against the stub API (stub.py) or
the real bot on the fake Bot API (the e2e fixtures). Without a browser they skip, saying why."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import api, db_path, start_bot, token  # noqa: F401  (fixtures)
from tests.webapp.browser.browser import Browser, missing


@pytest.fixture(scope="session")
def idle_browsers():
    """Browsers a test of this worker has finished with, for the next: a Chromium takes about a
    second of a core to start and stop."""
    idle: list[Browser] = []
    yield idle
    for browser in idle:
        browser.close()


@pytest.fixture
def browsers(idle_browsers):
    """Opens browsers on demand (one per player in the app), each with a fresh tab, and hands
    them back after the test (a broken one is closed)."""
    reason = missing()
    if reason:
        pytest.skip(reason)
    opened: list[Browser] = []

    def open_browser() -> Browser:
        browser = idle_browsers.pop() if idle_browsers else Browser()
        opened.append(browser)
        return browser

    open_browser.opened = opened
    yield open_browser
    for browser in opened:
        if browser.fresh_tab():
            idle_browsers.append(browser)
        else:
            browser.close()
