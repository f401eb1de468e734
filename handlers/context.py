"""The services behind both doors (the chat's handlers and the Mini App): one typed object,
`Karata`, that the composition root builds and each door reaches."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from handlers.delivery.chat_keeper import ChatKeeper
from handlers.delivery.courier import Courier
from handlers.delivery.publisher import Publisher
from handlers.moves import Moves
from handlers.recent import Recent
from tables.arena_nights import ArenaNights
from tables.metrics import Metrics
from tables.service import TableService
from tables.store import Store


@dataclass
class Karata:
    """The services behind the handlers, built once by the composition root (bot/app.py) and
    kept under one key of `application.bot_data`; nothing else of the handlers lives there."""

    store: Store
    service: TableService
    publisher: Publisher
    courier: Courier
    # The one owner of whether a chat can be written to (handlers/delivery/chat_keeper.py).
    keeper: ChatKeeper
    # The bot's figures (/metrics, the owner's /status).
    metrics: Metrics
    # Update ids seen lately in this process (handlers/chat/redelivery.py).
    recent_updates: Recent
    # The one door for presses and table buttons, chat and app alike, and their open branches.
    moves: Moves
    # Arena nights: a group's timed competition over the tables (tables/arena_nights.py).
    arenas: ArenaNights
    group_language: str
    # Where the games' full guides are (None: the source checkout's docs/games).
    guides_dir: Path | None = None
    # Telegram user ids of the bot's owners (KARATA_OWNER_IDS): /status.
    owners: frozenset[int] = frozenset()
    # The name last stored for each user seen (a cache: handlers/chat/basics.py `track_user`).
    names_seen: dict[int, str] = field(default_factory=dict)
    # Costly table buttons pressed once, waiting for their second press: (table, user, key) -> when.
    confirmations: dict[tuple[int, int, str], float] = field(default_factory=dict)


# The key of the handlers' services in `application.bot_data`.
KARATA = "karata"
