"""`karata run` in its own process, stopping because it cannot go on: a port another program has,
a token revoked while it runs. Each ends with one line naming what to change and a failing exit
status, in plain text or, with KARATA_LOG_FORMAT=json, as one JSON object like every other line."""

from __future__ import annotations

import json
import socket

import pytest

from bot.demo import DEMO_TOKEN
from bot.runner import TOKEN_REVOKED
from fakeapi import FakeBotAPI
from tests.e2e.test_process import output_of, start_karata

pytestmark = pytest.mark.asyncio


async def polling(api: FakeBotAPI) -> None:
    """Polling: the bot is running, past its start-up."""
    await api.wait_until(lambda: any(method == "getUpdates" for method, _ in api.calls), timeout=30, what="polling")


async def test_a_port_another_program_has_is_one_line_naming_the_setting(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        async with FakeBotAPI(token=DEMO_TOKEN) as api:
            process = await start_karata(api.base_url, str(tmp_path / "k.db"), KARATA_HTTP_PORT=str(port))
            printed = await output_of(process, timeout=60)
    assert process.returncode == 2, printed
    assert "Traceback" not in printed
    last = printed.strip().splitlines()[-1]
    assert last.startswith(f"karata run: the HTTP server cannot listen on 127.0.0.1:{port} (address already in use)")
    assert "KARATA_HTTP_PORT" in last


async def test_a_port_another_program_has_is_said_before_telegram_answers(tmp_path):
    """Telegram unreachable (its first answer can take minutes): the busy port is still said at once."""
    with socket.socket() as taken, socket.socket() as silent:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        silent.bind(("127.0.0.1", 0))  # bound, never listening: every connection to it is refused
        port, nowhere = taken.getsockname()[1], silent.getsockname()[1]
        process = await start_karata(
            f"http://127.0.0.1:{nowhere}/bot", str(tmp_path / "k.db"), KARATA_HTTP_PORT=str(port)
        )
        try:
            printed = await output_of(process, timeout=60)
        finally:
            if process.returncode is None:
                process.kill()
    assert process.returncode == 2, printed
    assert printed.strip().splitlines()[-1].startswith(f"karata run: the HTTP server cannot listen on 127.0.0.1:{port}")
    assert "cannot reach the Bot API" not in printed


async def test_a_token_revoked_while_running_stops_the_process_with_one_line(tmp_path):
    async with FakeBotAPI(token=DEMO_TOKEN) as api:
        process = await start_karata(api.base_url, str(tmp_path / "k.db"))
        await polling(api)
        api.revoke_token()
        printed = await output_of(process, timeout=60)
    assert process.returncode == 2, printed
    assert "Traceback" not in printed
    assert printed.strip().splitlines()[-1] == TOKEN_REVOKED
    assert DEMO_TOKEN not in printed and DEMO_TOKEN.split(":")[1] not in printed


async def test_with_json_logs_every_line_is_json_down_to_the_revoked_tokens(tmp_path):
    async with FakeBotAPI(token=DEMO_TOKEN) as api:
        process = await start_karata(api.base_url, str(tmp_path / "k.db"), KARATA_LOG_FORMAT="json")
        await polling(api)
        api.revoke_token()
        printed = await output_of(process, timeout=60)
    assert process.returncode == 2, printed
    lines = [json.loads(line) for line in printed.splitlines()]
    assert lines[-1]["message"] == TOKEN_REVOKED and lines[-1]["level"] == "CRITICAL"
    assert not any("error" in line for line in lines), "no traceback for a refused token"


@pytest.mark.parametrize(
    "token, environment, stop",
    [
        ("987654:this-token-is-not-known-to-telegram", {}, "karata run: Telegram refused BOT_TOKEN"),
        (DEMO_TOKEN, {"KARATA_WEBHOOK_URL": "http://karata.example/hook", "KARATA_MODE": "webhook"},
         "karata run: bad setting KARATA_WEBHOOK_URL: "),
    ],
    ids=["refused token", "bad setting"],
)  # fmt: skip
async def test_with_json_logs_a_start_up_refusal_is_a_json_line(tmp_path, token, environment, stop):
    async with FakeBotAPI(token=DEMO_TOKEN) as api:
        process = await start_karata(
            api.base_url, str(tmp_path / "k.db"), token, KARATA_LOG_FORMAT="json", **environment
        )
        printed = await output_of(process, timeout=60)
    assert process.returncode == 2, printed
    lines = [json.loads(line) for line in printed.splitlines()]
    assert lines and lines[-1]["message"].startswith(stop) and lines[-1]["level"] == "CRITICAL"
