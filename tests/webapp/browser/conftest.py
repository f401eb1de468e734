"""Browser tests: headless Chromium (browser.py) on the page, against the stub API (stub.py) or
the real bot on the fake Bot API (the e2e fixtures). Without a browser they skip, saying why."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import api, db_path, start_bot, token  # noqa: F401  (fixtures)
from tests.webapp.browser.browser import Browser, missing


@pytest.fixture
def browsers():
    """Opens browsers on demand (one per player in the app) and closes them all after the test."""
    reason = missing()
    if reason:
        pytest.skip(reason)
    opened: list[Browser] = []

    def open_browser() -> Browser:
        browser = Browser()
        opened.append(browser)
        return browser

    open_browser.opened = opened
    yield open_browser
    for browser in opened:
        browser.close()
