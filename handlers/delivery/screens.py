"""Every message a table owns, as it should look now: a pure function of the committed table.

A table's messages are "slots": its message in the group (`table`), each player's hand
(`hand:<user>`), a "your turn" nudge (`nudge:<user>`), a notice that someone's private chat
fails (`unreachable:<user>`), a Rule Vote poll (`poll`) and the last round's results
(`results`). The publisher compares each slot with what the chat shows and sends the difference.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo
from telegram.helpers import create_deep_linked_url

from handlers.delivery.flood import BACKGROUND, POST, TABLE, URGENT
from handlers.i18n import Translator
from handlers.presentation.callback_data import WatchLink
from handlers.presentation.games import renderer_for
from handlers.presentation.render import hand
from handlers.presentation.render import table as group
from handlers.presentation.render.seat import player_view, round_results
from tables.models import CHAT_LOST, LOBBY, PLAYING, Loaded, Seat, TableRow

# How a slot is delivered: a message edited in place; a post sent once per content and never
# edited or deleted; a nudge or notice sent once and deleted when it no longer applies; a poll.
MESSAGE = "message"
POST_ONCE = "post"
NOTICE = "notice"
POLL = "poll"


@dataclass(frozen=True)
class Poll:
    key: str
    question: str
    answers: tuple[str, ...]


@dataclass(frozen=True)
class Screen:
    kind: str
    chat_id: int
    thread_id: int
    priority: int
    text: str = ""
    markup: InlineKeyboardMarkup | None = None
    poll: Poll | None = None
    # Content that is not shown but makes a post new (the version of the round it reports).
    edition: int = 0
    digest: str = field(init=False, compare=False)

    def __post_init__(self) -> None:
        shown = {
            "text": self.text,
            "markup": self.markup.to_dict() if self.markup else None,
            "poll": [self.poll.key, self.poll.question, list(self.poll.answers)] if self.poll else None,
            "edition": self.edition,
        }
        digest = hashlib.sha1(json.dumps(shown, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:20]
        object.__setattr__(self, "digest", digest)


@dataclass(frozen=True)
class Readers:
    """Who reads a table's messages, and in which language."""

    group: Translator
    users: dict[int, Translator]
    bot_username: str
    # The Mini App (docs/MINIAPP.md): its URL, and its short name for links from groups.
    webapp_url: str | None = None
    webapp_name: str | None = None

    def of(self, user_id: int) -> Translator:
        return self.users.get(user_id, self.group)

    def link(self, payload: str) -> str:
        return create_deep_linked_url(self.bot_username, payload)


def join_link(readers: Readers, table_id: int, token: str) -> str:
    return readers.link(f"j{table_id}_{token}")


def hand_link(readers: Readers, table_id: int) -> str:
    return readers.link(f"h{table_id}")


def app_button(readers: Readers, table_id: int, _: Translator) -> InlineKeyboardButton | None:
    """The private chat's button that opens the Mini App on this table (web_app buttons work in
    private chats only)."""
    if not readers.webapp_url:
        return None
    return InlineKeyboardButton(
        "🃏 " + _("Open the table"), web_app=WebAppInfo(f"{readers.webapp_url}?table={table_id}")
    )


def app_link(readers: Readers, table_id: int, _: Translator) -> InlineKeyboardButton | None:
    """A group's link to the Mini App on this table: t.me/<bot>/<app>?startapp=t<id>, where the
    operator registered the app's short name."""
    if not readers.webapp_url or not readers.webapp_name:
        return None
    url = f"https://t.me/{readers.bot_username}/{readers.webapp_name}?startapp=t{table_id}"
    return InlineKeyboardButton("🃏 " + _("Open the table"), url=url)


class Watchable(Protocol):
    """What a watch link needs of a table (a table row, or an arena's running table)."""

    @property
    def table_id(self) -> int: ...

    @property
    def join_token(self) -> str | None: ...


def watch_url(bot_username: str, webapp_name: str | None, table: Watchable) -> str | None:
    """The link that opens the Mini App watching `table`: its start parameter carries the table's
    join token, which its group was shown in the lobby's join link (docs/DECISIONS.md). None
    when the app has no short name, or the table no token."""
    if not webapp_name or not table.join_token:
        return None
    watch = WatchLink(table.table_id, table.join_token)
    return f"https://t.me/{bot_username}/{webapp_name}?startapp={watch.payload()}"


def watch_button(readers: Readers, table: TableRow, _: Translator) -> InlineKeyboardButton | None:
    """A group's "👀 Watch" link to the table in the Mini App (the table's message; an arena's
    standings): anyone in the group may follow the table live, and it costs no Bot API call."""
    url = watch_url(readers.bot_username, readers.webapp_name, table) if readers.webapp_url else None
    return InlineKeyboardButton("👀 " + _("Watch"), url=url) if url else None


def _with_row(
    markup: InlineKeyboardMarkup | None, *buttons: InlineKeyboardButton | None
) -> InlineKeyboardMarkup | None:
    """The markup with a row of the given buttons below (those that are None left out)."""
    row = [button for button in buttons if button is not None]
    if not row:
        return markup
    return InlineKeyboardMarkup([*(markup.inline_keyboard if markup else ()), row])


# A panel that stands in for a player's hand while they use it: given the reader's language,
# its text and keyboard, or None once it no longer applies.
Panel = Callable[[Translator], "tuple[str, InlineKeyboardMarkup | None] | None"]


def table_screens(
    loaded: Loaded,
    readers: Readers,
    now: float,
    opened: Mapping[int, tuple[int, int]] | None = None,
    panels: Mapping[int, Panel] | None = None,
    resting: Collection[int] = (),
) -> dict[str, Screen]:
    """`opened`: user -> (keyboard digest, node) of a branch the player opened in their keyboard;
    `panels`: user -> a panel shown in place of their hand; `resting`: users whose hand is not
    drawn at all (the Mini App shows them the table; their chat catches up when they leave it)."""
    table, game, state = loaded.table, loaded.game, loaded.state
    opened = opened or {}
    panels = panels or {}
    _ = readers.group

    def in_group(
        kind: str,
        priority: int,
        text: str = "",
        markup: InlineKeyboardMarkup | None = None,
        poll: Poll | None = None,
        edition: int = 0,
    ) -> Screen:
        return Screen(kind, table.chat_id, table.thread_id, priority, text, markup, poll, edition)

    screens: dict[str, Screen] = {}
    if table.arena_id is not None:
        # An arena's tables cost the group nothing: each player's private hand shows the table
        # too, and the group sees the arena's standings (docs/DECISIONS.md, "Arena nights").
        return arena_screens(loaded, readers, now, opened, panels)
    if table.status == LOBBY:
        most = group.player_range(table, game)[1]
        markup: InlineKeyboardMarkup | None = group.lobby_markup(
            table, _, join_link(readers, table.table_id, table.join_token), most
        )
        screens["table"] = in_group(MESSAGE, TABLE, text=group.lobby_text(table, game, _), markup=markup)
        return screens
    if state is None:
        screens["table"] = in_group(MESSAGE, TABLE, text=group.closed_text(table, _))
        return screens
    view = player_view(table, game, state, None)
    link = hand_link(readers, table.table_id)
    screens["table"] = in_group(
        MESSAGE,
        TABLE,
        text=group.table_text(table, game, state, _, view, now),
        markup=_with_row(
            group.table_markup(table, game, state, _, view, link),
            *(
                (app_link(readers, table.table_id, _), watch_button(readers, table, _))
                if table.chat_id < 0 and table.status == PLAYING
                else ()
            ),
        ),
    )
    results = round_results(table, _)
    if results and table.round_events:
        screens["results"] = in_group(POST_ONCE, POST, text=results, edition=table.round_events.get("version", 0))
    playing = table.status == PLAYING
    if playing:
        wanted = renderer_for(table.game).poll_for(view, _, table.names)
        if wanted is not None:
            key, question, answers = wanted
            poll = Poll(key, question[:300], tuple(answer[:100] for answer in answers))
            screens["poll"] = in_group(POLL, POST, poll=poll)
    paused = table.paused_until is not None and now < table.paused_until
    waiting = set(game.to_act(state))
    for user_id in table.leavers:
        # The hand of a player who left says so, without buttons, and is never edited again.
        screens[f"hand:{user_id}"] = Screen(
            MESSAGE, user_id, 0, BACKGROUND, text=group.left_text(table, user_id, readers.of(user_id))
        )
    for seat in table.seats:
        user_id = seat.user_id
        if seat.is_computer:
            continue
        if user_id in table.unreachable:
            if playing:
                screens[f"unreachable:{user_id}"] = in_group(
                    NOTICE,
                    POST,
                    text=group.unreachable_text(table, user_id, _),
                    markup=group.unreachable_markup(_, link),
                )
            continue
        reader = readers.of(user_id)
        if user_id not in resting:
            shown = panels[user_id](reader) if user_id in panels and playing else None
            if table.closed_reason == CHAT_LOST:
                # The group is closed to the bot: the standings go to each player instead.
                text, markup = group.lost_text(table, game, state, reader, view), None
            else:
                text, markup = shown or _hand(loaded, seat, reader, readers, opened.get(user_id), paused)
            priority = URGENT if seat.player in waiting and not paused else BACKGROUND
            screens[f"hand:{user_id}"] = Screen(MESSAGE, user_id, 0, priority, text=text, markup=markup)
        if playing and seat.player in table.nudged:
            screens[f"nudge:{user_id}"] = Screen(NOTICE, user_id, 0, BACKGROUND, text=group.nudge_text(table, reader))
    return screens


def _hand(
    loaded: Loaded, seat: Seat, reader: Translator, readers: Readers, opened: tuple[int, int] | None, paused: bool
) -> tuple[str, InlineKeyboardMarkup | None]:
    """A seat's hand message, with the app's button while the match runs."""
    table, game, state = loaded.table, loaded.game, loaded.state
    text, markup = hand.render_hand(table, game, state, seat.player, reader, opened, paused)
    if table.status == PLAYING:
        markup = _with_row(markup, app_button(readers, table.table_id, reader))
    return text, markup


def arena_screens(
    loaded: Loaded,
    readers: Readers,
    now: float,
    opened: Mapping[int, tuple[int, int]],
    panels: Mapping[int, Panel],
) -> dict[str, Screen]:
    """An arena table's messages: only the players' hands, each under the table as the group
    would have seen it (a finished one keeps its last hand, closed)."""
    table, game, state = loaded.table, loaded.game, loaded.state
    if state is None:
        return {}
    playing = table.status == PLAYING
    paused = table.paused_until is not None and now < table.paused_until
    waiting = set(game.to_act(state))
    view = player_view(table, game, state, None)
    screens: dict[str, Screen] = {}
    for user_id in table.leavers:
        screens[f"hand:{user_id}"] = Screen(
            MESSAGE, user_id, 0, BACKGROUND, text=group.left_text(table, user_id, readers.of(user_id))
        )
    for seat in table.humans:
        user_id, reader = seat.user_id, readers.of(seat.user_id)
        if user_id in table.unreachable:
            continue  # their chat refuses us; the computer plays their turns when their time runs out
        board = group.table_text(table, game, state, reader, view, now)
        shown = panels[user_id](reader) if user_id in panels and playing else None
        text, markup = shown or _hand(loaded, seat, reader, readers, opened.get(user_id), paused)
        priority = URGENT if seat.player in waiting and not paused else BACKGROUND
        screens[f"hand:{user_id}"] = Screen(MESSAGE, user_id, 0, priority, text=f"{board}\n\n{text}", markup=markup)
    return screens


@functools.cache
def user_of_slot(slot: str) -> int | None:
    """The user a per-player slot belongs to (`hand:42` -> 42)."""
    _kind, _sep, user = slot.partition(":")
    return int(user) if user.lstrip("-").isdigit() else None
