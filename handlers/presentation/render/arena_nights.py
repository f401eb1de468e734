"""What an arena night shows: the group's one standings message (edited as the arena goes), the
final podium, and each player's own line at the end. Pure text from tables/arena_nights.py."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from html import escape

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from handlers.i18n import Translator
from handlers.presentation.callback_data import ArenaOp
from handlers.presentation.render.common import game_title
from tables.arena_nights import CANCELLED, CLOSING, OPEN, RUNNING, Line, Playing, Standings
from tables.seasons import PLAYERS_TIME

# The standings list this many players; the last matches this many lines.
SHOWN_LINES = 15
LAST_MATCHES = 3
MEDALS = ("🥇", "🥈", "🥉")

# A running table's "👀 Watch" link (None: no link for it).
WatchUrl = Callable[[Playing], "str | None"]


def clock_time(when: float) -> str:
    """«21:30»: the players' time (East Africa Time)."""
    return datetime.fromtimestamp(when, PLAYERS_TIME).strftime("%H:%M")


def arena_line(line: Line, name: str, _: Translator) -> str:
    points = _.plural("{count} point", "{count} points", line.points)
    matches = _.plural("{count} match", "{count} matches", line.matches)
    wins = _.plural("{count} win", "{count} wins", line.wins)
    fire = " 🔥" if line.streak >= 2 else ""
    return _("{place}. {name}: {points} ({wins}, {matches})", place=line.place, name=name, points=points, wins=wins,
             matches=matches) + fire  # fmt: skip


def _heading(standings: Standings, _: Translator) -> str:
    title = escape(game_title(standings.arena.game, _))
    return _("🏟 <b>Arena: {game}</b>, {minutes} min", game=title, minutes=standings.minutes)


def _state_line(standings: Standings, _: Translator) -> str:
    arena = standings.arena
    if arena.status == OPEN:
        return _("Join with the button; the arena starts when its opener presses Start.")
    if arena.status == RUNNING and arena.ends_at is not None:
        return _("Running until {time}: a finished table is seated again at once.", time=clock_time(arena.ends_at))
    if arena.status == CLOSING:
        return _("Time is up: no new table starts; the last tables finish their matches.")
    if arena.status == CANCELLED:
        return _("This arena was called off.")
    return _("The arena is over.")


def standings_text(standings: Standings, _: Translator, watch_url: WatchUrl | None = None) -> str:
    """The group's standings message: who leads, who plays now (with a "👀 Watch" link per table
    when `watch_url` gives one), and the last matches."""
    arena = standings.arena
    names = standings.seat_names
    lines = [_heading(standings, _), _state_line(standings, _), ""]
    if not standings.lines:
        lines.append(_("Nobody has joined yet."))
    at_table = {user for table in standings.playing for user in table.user_ids}
    paused = {entrant.user_id for entrant in arena.entrants if entrant.paused}
    for line in standings.lines[:SHOWN_LINES]:
        mark = " 🃏" if line.user_id in at_table else " ⏸" if line.user_id in paused else ""
        lines.append(arena_line(line, escape(names.get(line.user_id, "?")), _) + mark)
    if len(standings.lines) > SHOWN_LINES:
        lines.append(_("…and {count} more", count=len(standings.lines) - SHOWN_LINES))
    if standings.playing:
        lines += ["", _("<b>Playing now</b>")]
        for table in standings.playing:
            link = watch_url(table) if watch_url else None
            watch = f' · <a href="{escape(link)}">👀 ' + escape(_("Watch")) + "</a>" if link else ""
            lines.append("🃏 " + _.list(escape(name) for name in table.names) + watch)
    if standings.finished:
        lines += ["", _("<b>Last matches</b>")]
        for match in reversed(standings.finished[-LAST_MATCHES:]):
            winners = [names.get(seat.user_id, "?") for seat in match.seats if seat.place == 1]
            others = [names.get(seat.user_id, "?") for seat in match.seats if seat.place != 1]
            won = _("{winners} won", winners=_.list(escape(name) for name in winners))
            lines.append(f"🏁 {won} ({_.list(escape(name) for name in others)})" if others else f"🏁 {won}")
    return "\n".join(lines)


def standings_markup(standings: Standings, join_url: str, _: Translator) -> InlineKeyboardMarkup | None:
    arena = standings.arena
    if arena.status not in (OPEN, RUNNING):
        return None
    buttons = [InlineKeyboardButton(_("🏟 Join"), url=join_url)]
    if arena.status == OPEN:
        buttons.append(InlineKeyboardButton(_("▶️ Start"), callback_data=ArenaOp(arena.arena_id, "start").encode()))
    return InlineKeyboardMarkup([buttons])


def podium_text(standings: Standings, _: Translator) -> str:
    """The final post: the podium, then everyone's line."""
    names = standings.seat_names
    title = escape(game_title(standings.arena.game, _))
    lines = [_("🏆 <b>The arena is over: {game}</b>", game=title), ""]
    played = [line for line in standings.lines if line.matches]
    if not played:
        lines.append(_("Nobody finished a match."))
        return "\n".join(lines)
    for line in played:
        if line.place <= len(MEDALS):
            lines.append(
                f"{MEDALS[line.place - 1]} " + arena_line(line, f"<b>{escape(names.get(line.user_id, '?'))}</b>", _)
            )
    rest = [line for line in played if line.place > len(MEDALS)]
    if rest:
        lines.append("")
        lines += [arena_line(line, escape(names.get(line.user_id, "?")), _) for line in rest[:SHOWN_LINES]]
    matches = len(standings.finished)
    lines += ["", _.plural("{count} match played.", "{count} matches played.", matches)]
    return "\n".join(lines)


def own_line_text(standings: Standings, user_id: int, _: Translator) -> str | None:
    """A player's own line, sent to their private chat at the end."""
    line = next((line for line in standings.lines if line.user_id == user_id), None)
    if line is None:
        return None
    points = _.plural("{count} point", "{count} points", line.points)
    return _(
        "🏟 The arena is over. You finished {place} of {count} with {points} ({wins} won of {matches}).",
        place=line.place,
        count=len(standings.lines),
        points=points,
        wins=line.wins,
        matches=_.plural("{count} match", "{count} matches", line.matches),
    )


def joined_text(standings: Standings, paused: bool, _: Translator) -> str:
    """The private chat's answer to joining (and to a pause or a come-back)."""
    title = escape(game_title(standings.arena.game, _))
    if paused:
        return _("⏸ You left the {game} arena's queue: no new table for you until you come back.", game=title)
    return _(
        "🏟 You are in the {game} arena. Your tables come to this chat; between matches you wait in the queue.",
        game=title,
    )


def joined_markup(arena_id: int, paused: bool, _: Translator) -> InlineKeyboardMarkup:
    if paused:
        return InlineKeyboardMarkup(
            [[InlineKeyboardButton(_("▶️ Come back"), callback_data=ArenaOp(arena_id, "back").encode())]]
        )
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(_("⏸ Pause"), callback_data=ArenaOp(arena_id, "pause").encode())]]
    )
