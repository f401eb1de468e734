"""`karata demo --webapp`: the links it prints open the app, as the person in a browser would,
on a table they sit at with computer players, until it is stopped."""

from __future__ import annotations

import asyncio
import re
import signal
import sys
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import aiohttp
import pytest

from bot.demo_webapp import serve_webapp_demo

pytestmark = pytest.mark.asyncio


async def test_the_printed_links_open_the_app_on_a_dealt_table_with_computer_players():
    lines: list[str] = []
    stop = asyncio.Event()
    demo = asyncio.create_task(serve_webapp_demo("kadi", players=3, humans=2, stop=stop, say=lines.append))
    try:
        for _ in range(300):
            if any("Ctrl-C" in line for line in lines) or demo.done():
                break
            await asyncio.sleep(0.05)
        urls = re.findall(r"http://127\.0\.0\.1:\d+/app/\S+", "\n".join(lines))
        assert len(urls) == 2, lines
        assert lines[0] == "Kadi: the table is dealt. Seats for you in the browser: 2; computer players: 1.", lines
        async with aiohttp.ClientSession() as http:
            for url, name in zip(urls, ("Amina", "Baraka")):
                address = urlsplit(url)
                hash_fields = dict(parse_qsl(address.fragment))
                init_data = hash_fields["tgWebAppData"]
                assert dict(parse_qsl(init_data))["hash"], "initData is signed, as Telegram passes it"
                assert hash_fields["tgWebAppThemeParams"].startswith("{")
                base = f"http://{address.netloc}/app/"
                async with http.get(url.split("#")[0]) as page:
                    assert page.status == 200 and "app.js" in await page.text()
                headers = {"X-Telegram-Init-Data": init_data}
                async with http.get(base + "api/me", headers=headers) as response:
                    me = await response.json()
                assert response.status == 200 and me["user"]["name"] == name
                table_id = dict(parse_qsl(address.query))["table"]
                assert me["current"] == int(table_id) and me["tables"][0]["game"] == "kadi"
                async with http.get(base + f"api/table/{table_id}", headers=headers) as response:
                    snap = await response.json()
                assert snap["status"] == "running" and len(snap["hand"]) > 0
                you = [seat for seat in snap["seats"] if seat["you"]]
                assert [seat["name"] for seat in you] == [name]
                assert sum(seat["computer"] for seat in snap["seats"]) == 1, "the third seat is a computer"
        stop.set()
        assert await asyncio.wait_for(demo, 30) == 0
        with pytest.raises(aiohttp.ClientConnectionError):
            async with aiohttp.ClientSession() as http, http.get(base + "api/me"):
                pass
    finally:
        stop.set()
        if not demo.done():
            demo.cancel()


async def test_karata_demo_webapp_prints_a_working_link_and_stops_on_ctrl_c():
    root = Path(__file__).resolve().parents[2]
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "demo", "kadi", "--webapp", cwd=root,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    try:
        printed = b""
        while b"Ctrl-C" not in printed:
            line = await asyncio.wait_for(process.stdout.readline(), 30)
            assert line, printed.decode()
            printed += line
        # The demo speaks its language (Swahili by default), as its transcript does.
        assert "Fungua kiungo hiki kwenye kivinjari ucheze kama Amina:" in printed.decode()
        url = re.search(r"http://127\.0\.0\.1:\d+/app/\S+", printed.decode()).group(0)
        address = urlsplit(url)
        init_data = dict(parse_qsl(address.fragment))["tgWebAppData"]
        headers = {"X-Telegram-Init-Data": init_data}
        async with aiohttp.ClientSession() as http:
            async with http.get(f"http://{address.netloc}/app/api/me", headers=headers) as response:
                assert response.status == 200 and (await response.json())["user"]["name"] == "Amina"
        process.send_signal(signal.SIGINT)
        assert await asyncio.wait_for(process.wait(), 30) == 0
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
