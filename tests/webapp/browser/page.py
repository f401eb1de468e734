"""The page as a player uses it, from async tests that run the bot in the same event loop:
every selenium call runs in a thread, so the bot goes on answering while the browser waits."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

from tests.webapp.browser.browser import Browser

STATE = "return KarataApp.state.snap"
# Clicks the element that opens node N if it can be tapped now (not a dimmed card).
CLICK = """
var el = document.querySelector('#app [data-node="' + arguments[0] + '"]');
if (!el || el.disabled || KarataApp.state.busy) return false;
el.click();
return true;
"""


class Page:
    def __init__(self, browser: Browser):
        self.browser = browser
        self.driver = browser.driver

    async def run(self, script: str, *args: Any) -> Any:
        return await asyncio.to_thread(self.driver.execute_script, script, *args)

    async def open(self, url: str) -> None:
        await asyncio.to_thread(self.driver.get, url)
        await self.until("return !!document.querySelector('#prompt, #fatal')", what="the table or an error")

    async def until(self, script: str, *args: Any, timeout: float = 10.0, what: str = "") -> Any:
        deadline = time.monotonic() + timeout
        while True:
            found = await self.run(script, *args)
            if found:
                return found
            if time.monotonic() > deadline:
                raise AssertionError(f"the page never showed {what or script}")
            await asyncio.sleep(0.03)

    async def snap(self) -> dict | None:
        return await self.run(STATE)

    async def text(self, selector: str) -> str:
        return await self.run("var el = document.querySelector(arguments[0]); return el ? el.innerText : ''", selector)

    async def version(self) -> int:
        return await self.run("return KarataApp.state.snap ? KarataApp.state.snap.version : -1")

    async def at_version(self, version: int, timeout: float = 10.0) -> None:
        await self.until(
            "return KarataApp.state.snap && KarataApp.state.snap.version >= arguments[0]",
            version,
            timeout=timeout,
            what=f"version {version}",
        )

    async def tap(self, node: int) -> None:
        """Tap what opens `node` and wait for the server's answer to be drawn."""
        await self.until(CLICK, node, what=f"a tappable node {node}")
        await self.until("return !KarataApp.state.busy", what="the answer to a tap")

    async def play_one(self, rng: random.Random, prefer=None, pick=None) -> list[dict]:
        """Tap one whole move (its cards one by one, then ✔), chosen at random among the moves the
        page offers; `prefer(first key of the move)` picks the kind of move (plays of cards by
        default) when there is one, and `pick(keys that play at once)` one of those rather than
        chance. The page holds only the open node's keys: each tap that opens a branch answers
        with the next, so the move is walked forward (never back, never unmarking) to its play.
        The keys tapped; empty (false) when the page offers no move."""

        def forward(snap) -> list[dict]:
            return [key for key in snap["choices"]["keys"] if key["kind"] != "back" and not key["marked"]]

        snap = await self.snap()
        if snap["choices"]["at"] != 0:
            raise AssertionError("a move was left half tapped")
        keys = forward(snap)
        if not keys:
            return []
        prefer = prefer or (lambda start: start["kind"] == "card")  # a play of cards
        keys = [key for key in keys if prefer(key)] or keys
        tapped = []
        while True:
            plays = [key for key in keys if not key["opens"]]
            key = pick(plays) if pick and plays else rng.choice(keys)
            tapped.append(key)
            await self.tap(key["node"])
            if not key["opens"]:
                return tapped
            keys = forward(await self.snap())
