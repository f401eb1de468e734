"""Logging set-up that never writes the bot token, wherever a library puts it (URLs, reprs)."""

from __future__ import annotations

import logging


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


def setup_logging(level: str, token: str) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(RedactSecrets(token))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # httpx logs every request URL, which contains the token; keep it quiet unless debugging.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("apscheduler").setLevel(logging.WARNING)
