"""Which chat and table the code running now is about, for the log's JSON lines (bot/logs.py).

Handlers set the chat when an update comes in, the table service the table it loads; each
update runs in its own asyncio task, so one update's ids never label another's lines.
"""

from __future__ import annotations

from contextvars import ContextVar

ABOUT: ContextVar[dict[str, int] | None] = ContextVar("karata_log_about", default=None)


def about(**ids: int | None) -> None:
    """Add ids (chat_id, table_id, ...) to what this task's log lines are about."""
    known = {name: value for name, value in ids.items() if value is not None}
    if known:
        ABOUT.set({**(ABOUT.get() or {}), **known})


def current() -> dict[str, int]:
    return ABOUT.get() or {}
