"""Logging set-up that never writes the bot token, wherever a library puts it (URLs, reprs).

Plain text by default: one line per event that a person reads. `KARATA_LOG_FORMAT=json` writes
one JSON object per line for log stacks (Loki, Elasticsearch...), with the chat and table the
line is about where known (tables/log_context.py, or a record's own `chat_id`/`table_id`).
The token filter stands before either format. With JSON, every line `karata run` writes is JSON:
the line it stops with (`stop_line`), Python's warnings, and a crash's traceback.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import time

from telegram.error import InvalidToken

from tables.log_context import current

# Ids a log record may carry itself (logging's `extra=`), besides the running task's.
ID_FIELDS = ("chat_id", "table_id")


class RedactSecrets(logging.Filter):
    def __init__(self, *secrets: str):
        super().__init__()
        self._secrets = [secret for secret in secrets if secret]

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = message
        for secret in self._secrets:
            redacted = redacted.replace(secret, "<BOT_TOKEN>")
        if record.exc_info and record.exc_info[1] is not None:
            # Tracebacks are formatted later; pre-format and redact them now.
            text = logging.Formatter().formatException(record.exc_info)
            for secret in self._secrets:
                text = text.replace(secret, "<BOT_TOKEN>")
            record.exc_text = text
            record.exc_info = None
        if redacted != message or record.args:
            record.msg, record.args = redacted, ()
        return True


class NoTracebackForRefusedToken(logging.Filter):
    """A refused token's traceback (python-telegram-bot logs one when polling gives up) says no
    more than its line, and `karata run` then stops with a line of its own."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and isinstance(record.exc_info[1], InvalidToken):
            record.exc_info = None
        return True


class JsonLines(logging.Formatter):
    """One JSON object per record: time (UTC, ISO 8601), level, logger, message, the chat and
    table ids known for it, and the traceback if any."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        line.update(current())
        line.update({name: getattr(record, name) for name in ID_FIELDS if hasattr(record, name)})
        if record.exc_text:
            line["error"] = record.exc_text
        elif record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def setup_logging(level: str, token: str, log_format: str = "text") -> None:
    handler = logging.StreamHandler()
    if log_format == "json":
        handler.setFormatter(JsonLines())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(NoTracebackForRefusedToken())  # before the redaction formats tracebacks
    handler.addFilter(RedactSecrets(token))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # Python's warnings would go to stderr as they are, outside the format.
    logging.captureWarnings(True)
    # httpx logs every request URL, which contains the token; keep it quiet unless debugging.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("apscheduler").setLevel(logging.WARNING)


def requested_format() -> str:
    """KARATA_LOG_FORMAT before the settings are read, so that a bad setting's line is JSON too
    when JSON was asked for."""
    return "json" if os.environ.get("KARATA_LOG_FORMAT", "").strip() == "json" else "text"


def stop_line(line: object, log_format: str) -> None:
    """The one line `karata run` stops with: bare for a person reading a terminal, one JSON
    object like every other line for a log stack (logging must be set up in JSON then)."""
    if log_format == "json":
        logging.getLogger("karata").critical(str(line))
    else:
        print(line, file=sys.stderr)
