"""Watching a table in the Mini App: who may, and the one screen all its watchers share.

A watcher is let in by the start parameter of the link that opened the app (`w<table>_<join
token>`: handlers/presentation/callback_data.py `WatchLink`, made by handlers/delivery/screens.py `watch_url`):
Telegram signs it into the initData, and the table's join token is what its group was shown in
the lobby's join link already (docs/DECISIONS.md says why, rather than asking Telegram who is in
the group). A watcher's screen is the table's
seat-less snapshot (snapshot.py with no player: the engine's spectator view only); it is built
and encoded once per table change and language, and every watcher's socket sends that one text.
"""

from __future__ import annotations

import json
import secrets
from collections import OrderedDict
from collections.abc import Callable

from handlers.i18n import Translator
from handlers.presentation.callback_data import parse_watch
from handlers.webapp.snapshot import snapshot
from tables.models import Loaded, TableRow

# Tables whose shared screen is kept: one text per language each, the newest change only.
KEPT_TABLES = 256


def may_watch(table: TableRow, start_param: str | None) -> bool:
    """Whether the link that opened the app (its signed start parameter) lets its user watch."""
    watch = parse_watch(start_param)
    if watch is None or watch.table_id != table.table_id or not table.join_token:
        return False
    return secrets.compare_digest(watch.token.encode(), table.join_token.encode())


def watched_id(start_param: str | None) -> int | None:
    """The table a watch link names (its token is checked when the table is read)."""
    watch = parse_watch(start_param)
    return watch.table_id if watch is not None else None


class WatchScreens:
    """The seat-less screen of each watched table as the text its sockets send, built once per
    (table change, language): a hundred watchers cost one snapshot and one encoding, and each
    holds nothing but a reference to the shared text."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._kept: OrderedDict[int, tuple[tuple[float, int, int], dict[str, str]]] = OrderedDict()

    def text(self, loaded: Loaded, _: Translator, extra: Callable[[dict], None] | None = None) -> str:
        """The watcher's frame (`{"type": "snapshot", ...}`) of the table as loaded; `extra` adds
        what every watcher's frame carries alike (the chat link)."""
        table = loaded.table
        stamp = (table.created_at, table.version, table.revision)
        found = self._kept.get(table.table_id)
        if found is None or found[0] < stamp:
            found = self._kept[table.table_id] = (stamp, {})
        elif found[0] > stamp:  # an older change, sent late: built for it alone
            return self._build(loaded, _, extra)
        self._kept.move_to_end(table.table_id)
        while len(self._kept) > KEPT_TABLES:
            self._kept.popitem(last=False)
        texts = found[1]
        if _.language not in texts:
            texts[_.language] = self._build(loaded, _, extra)
        return texts[_.language]

    def _build(self, loaded: Loaded, _: Translator, extra: Callable[[dict], None] | None) -> str:
        found = snapshot(loaded.table, loaded.game, loaded.state, None, _, self._clock())
        if extra is not None:
            extra(found)
        return json.dumps({"type": "snapshot", **found}, ensure_ascii=False)
