"""The log as an operator reads it: plain lines by default, JSON lines for log stacks, and the
token in neither."""

import asyncio
import io
import json
import logging

from telegram.error import NetworkError

from bot.logs import setup_logging
from handlers.delivery.courier import Courier
from handlers.delivery.flood import TABLE, FloodGate
from tables.log_context import about

TOKEN = "123456789:AAHsecretsecretsecret"


def logged(log_format: str, work) -> str:
    stream = io.StringIO()
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    try:
        setup_logging("INFO", TOKEN, log_format)
        root.handlers[0].setStream(stream)  # type: ignore[attr-defined]
        work()
    finally:
        root.handlers[:], level = saved
        root.setLevel(level)
        logging.captureWarnings(False)
    return stream.getvalue()


def events() -> None:
    log = logging.getLogger("karata.test")

    async def an_update() -> None:
        about(chat_id=-100123)
        about(table_id=7)
        log.info("table %s: a move", 7)
        try:
            raise RuntimeError(f"POST https://api.telegram.org/bot{TOKEN}/sendMessage failed")
        except RuntimeError:
            log.exception("could not deliver")

    asyncio.run(an_update())
    log.warning("flood wait of %d s", 3, extra={"chat_id": -100999})


def test_json_lines_carry_the_chat_and_table_and_never_the_token():
    text = logged("json", events)
    assert TOKEN not in text and TOKEN.split(":")[1] not in text
    lines = [json.loads(line) for line in text.splitlines()]
    assert [line["message"] for line in lines] == ["table 7: a move", "could not deliver", "flood wait of 3 s"]
    assert lines[0]["chat_id"] == -100123 and lines[0]["table_id"] == 7 and lines[0]["level"] == "INFO"
    assert "<BOT_TOKEN>" in lines[1]["error"] and lines[1]["table_id"] == 7
    # Outside the update's task its ids are gone; a record's own id is kept.
    assert lines[2]["chat_id"] == -100999 and "table_id" not in lines[2]


def test_plain_lines_are_one_per_event_and_never_show_the_token():
    text = logged("text", events)
    assert TOKEN not in text and TOKEN.split(":")[1] not in text
    assert "INFO karata.test: table 7: a move" in text
    assert "WARNING karata.test: flood wait of 3 s" in text


def a_failed_delivery() -> None:
    async def deliver(_ticket) -> None:
        raise NetworkError("Bad Gateway")

    async def deliveries() -> None:
        courier = Courier(FloodGate(per_second=100, group_per_minute=100))
        await courier.send(-100555, (42, "table"), TABLE, deliver)

    asyncio.run(deliveries())


def test_a_failed_deliverys_json_warning_carries_its_chat_and_table():
    (line,) = [json.loads(line) for line in logged("json", a_failed_delivery).splitlines()]
    assert line["level"] == "WARNING" and "NetworkError: Bad Gateway" in line["message"]
    assert line["chat_id"] == -100555 and line["table_id"] == 42


def test_with_json_logs_a_crash_of_karata_run_is_a_json_line_with_its_traceback(monkeypatch, tmp_path, capsys):
    import bot.runner
    from bot.cli import main

    def crash(_settings) -> None:
        raise RuntimeError(f"a bug near /bot{TOKEN}/getMe")

    monkeypatch.setenv("BOT_TOKEN", TOKEN)
    monkeypatch.setenv("KARATA_DB", str(tmp_path / "k.db"))
    monkeypatch.setenv("KARATA_LOG_FORMAT", "json")
    monkeypatch.setattr(bot.runner, "run", crash)
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    try:
        assert main(["run"]) == 1
    finally:
        root.handlers[:], level = saved
        root.setLevel(level)
        logging.captureWarnings(False)
    (line,) = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    assert line["level"] == "ERROR" and line["message"] == "karata run: stopped by an unexpected error"
    assert "RuntimeError: a bug near /bot<BOT_TOKEN>/getMe" in line["error"] and TOKEN not in line["error"]


def test_with_json_logs_karata_run_without_a_token_writes_json_lines_only(monkeypatch, capsys):
    """The @BotFather steps are for a person at a terminal: a log stack gets the one JSON line."""
    from bot.cli import main

    monkeypatch.delenv("BOT_TOKEN", raising=False)
    monkeypatch.setenv("KARATA_LOG_FORMAT", "json")
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    try:
        assert main(["run"]) == 2
    finally:
        root.handlers[:], level = saved
        root.setLevel(level)
        logging.captureWarnings(False)
    (line,) = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    assert line["message"] == "karata run: BOT_TOKEN is not set"
